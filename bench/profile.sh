#!/usr/bin/env bash
# Where the client's CPU per request goes on P1 (bench/run.sh): the engine at 50 and 500 connections against nginx,
# next to wrk at its best (-t1 or -t2) in the same minute. For each: a JFR recording of a steady window inside
# the profiling phase (top frames per thread, bench/lib/jfr_top.py) and each thread's CPU over the same window
# from /proc, per request; wrk's own CPU per request. Writes bench/profiles/p1-<connections>.txt.
#
# Usage: bench/profile.sh        (about 2 minutes on 2 cores; CONNS="50 500" by default; JAR=other.jar TAG=name
#                                 profiles another build into bench/profiles/p1-<connections>-<name>.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${JAR:-engine/target/aiperf.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests -Djazzer.skip=true -pl engine
out=$(mktemp -d)
nginx_port=18611
nginx_tls_port=18613
have_openssl=0
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
note() { echo "[profile] $*" >&2; }
source bench/lib/nginx.sh
# JFR's profile settings, sampling every 2 ms (Java) and 4 ms (native) instead of 10 and 20: a 5 s window then holds
# enough samples per thread to rank its frames.
sed -e '/method-sampling-java-interval/s/>10 ms</>2 ms</' -e '/method-sampling-native-interval/s/>20 ms</>4 ms</' "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" \
  > "$out/sampling.jfc"
mkdir -p bench/profiles
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
for conns in ${CONNS:-50 500}; do
  report="bench/profiles/p1-$conns${TAG:+-$TAG}.txt"
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  wrk -t2 -c"$conns" -d2s -s "$out/post.lua" "$url/v1/chat/completions" >/dev/null # warm nginx
  wrk_best=0; wrk_line=""
  for t in 1 2; do
    /usr/bin/time -f "%U %S" -o "$out/wrk.time" wrk -t"$t" -c"$conns" -d8s -s "$out/post.lua" \
      "$url/v1/chat/completions" > "$out/wrk.txt"
    rps=$(awk '/Requests\/sec/ {print $2}' "$out/wrk.txt")
    read -r u s < "$out/wrk.time"
    line=$(python3 -c "print(f'wrk -t$t: {$rps:,.0f} req/s, CPU {($u + $s) / ($rps * 8) * 1e6:.1f} us per request (user {$u} s, sys {$s} s)')")
    wrk_line="$wrk_line$line"$'\n'
    wrk_best=$(python3 -c "print(max($wrk_best, $rps))")
  done
  # 8 s warmup, 8 s profiling: the window is seconds 11 to 16 of the process, inside the profiling phase.
  note "engine at $conns connections"
  warm_page_cache
  JAVA_TOOL_OPTIONS="-XX:StartFlightRecording=delay=11s,duration=5s,settings=$out/sampling.jfc,filename=$out/p1-$conns.jfr" \
    java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$out/p1-$conns" \
    -u "$url" --concurrency "$conns" --warmup-duration 8 --benchmark-duration 8 --isl 16 --osl 16 \
    > "$out/p1-$conns.log" 2>&1 &
  jpid=$!
  sleep 11; python3 bench/lib/thread_cpu.py "$jpid" > "$out/cpu0.json"
  sleep 5; python3 bench/lib/thread_cpu.py "$jpid" > "$out/cpu1.json"
  wait "$jpid"
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  rps=$(python3 -c "import json; print(json.load(open('$out/p1-$conns/profile_export_aiperf.json'))['request_throughput']['avg'])")
  {
    echo "P1 at $conns connections against nginx, $jar (worktree at commit $commit), $(date -u +%Y-%m-%dT%H:%MZ), load $load_before before, $load_after after."
    echo "engine: $(python3 -c "print(f'{$rps:,.0f}')") req/s over its 8 s profiling phase; wrk best $(python3 -c "print(f'{$wrk_best:,.0f}')"): ratio $(python3 -c "print(f'{$rps / $wrk_best:.2f}')")"
    printf '%s' "$wrk_line"
    echo
    echo "Engine CPU per thread over the window (seconds 11-16 of the process), per request at the phase's rate:"
    python3 - "$out/cpu0.json" "$out/cpu1.json" "$rps" <<'PY'
import json, sys
a, b, rps = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
rows = sorted(((n, b[n][0] - a.get(n, [0, 0])[0], b[n][1] - a.get(n, [0, 0])[1]) for n in b), key=lambda r: -(r[1] + r[2]))
total = sum(u + s for _, u, s in rows)
for n, u, s in rows:
    if u + s >= 0.02:
        print(f"  {n:24s} user {u:5.2f} s  sys {s:5.2f} s  {(u + s) / (rps * 5) * 1e6:5.1f} us per request")
print(f"  {'all threads':24s} {total:5.2f} s  {total / (rps * 5) * 1e6:5.1f} us per request")
PY
    echo
    echo "JFR execution samples over the same window:"
    python3 bench/lib/jfr_top.py "$out/p1-$conns.jfr" 15
  } > "$report"
  note "wrote $report"
done
