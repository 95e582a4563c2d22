#!/usr/bin/env bash
# Two builds' CPU per request on P1 (non-streamed, against nginx), alternated in the same minutes
# (bench/history/analyses-2026-12.md):
# for each round and connection count, wrk at its best (-t1, -t2) and each jar's engine run (5 s warmup, 8 s
# profiling), the order of the jars swapped every round so neither always runs second. Each engine run's CPU is
# read from /proc over seconds 7 to 12 of the process (inside its profiling phase), per thread, per request at the
# phase's rate; on a shared machine this is steadier than requests per second, which follow the other processes.
# Prints one tab-separated line per run and the medians per build.
#
# Usage: A=old.jar B=new.jar bench/cpu-ab.sh   (ROUNDS=3, CONNS="50 500"; about 80 s per round and count;
#        A_OPTS/B_OPTS give a build JVM options, so one jar against itself compares two JVM settings)
set -euo pipefail
cd "$(dirname "$0")/.."
a=${A:?A=old.jar}; b=${B:?B=new.jar}
rounds=${ROUNDS:-3}
out=$(mktemp -d)
nginx_port=18621
nginx_tls_port=18623
have_openssl=0
jar=$a
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT
note() { echo "[cpu-ab] $*" >&2; }
load() { cut -d' ' -f1 /proc/loadavg; }
source bench/lib/nginx.sh
wrk -t1 -c50 -d2s -s "$out/post.lua" "$url/v1/chat/completions" >/dev/null # warm nginx
printf 'round\tbuild\tconns\tload\tengine_rps\twrk_best\tratio\tloop_us\tprocessor_us\tall_us\n' > "$out/rows.tsv"
for round in $(seq "$rounds"); do
  order="A B"; [ $((round % 2)) = 0 ] && order="B A"
  for conns in ${CONNS:-50 500}; do
    for build in $order; do
      j=$a; opts=${A_OPTS:-}; [ "$build" = B ] && { j=$b; opts=${B_OPTS:-}; }
      best=0
      for t in 1 2; do
        rps=$(wrk -t"$t" -c"$conns" -d4s -s "$out/post.lua" "$url/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')
        best=$(python3 -c "print(max($best, $rps))")
      done
      l0=$(load)
      dir="$out/r$round-$build-$conns"
      warm_page_cache
      # shellcheck disable=SC2086 # the options are split on purpose
      timeout 60 java $opts -jar "$j" profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$dir" \
        -u "$url" --concurrency "$conns" --warmup-duration 5 --benchmark-duration 8 --isl 16 --osl 16 \
        > "$dir.log" 2>&1 &
      tpid=$!; pids+=("$tpid"); sleep 1; jpid=$(pgrep -P "$tpid" java || echo "$tpid") # the JVM under timeout
      sleep 6; python3 bench/lib/thread_cpu.py "$jpid" > "$dir.cpu0"
      sleep 5; python3 bench/lib/thread_cpu.py "$jpid" > "$dir.cpu1"
      while kill -0 "$jpid" 2>/dev/null; do sleep 0.5; done
      [ -f "$dir/profile_export_aiperf.json" ] || { note "engine run failed: $dir.log"; tail -3 "$dir.log" >&2; continue; }
      python3 - "$dir" "$round" "$build" "$conns" "$l0" "$best" >> "$out/rows.tsv" <<'PY'
import json, sys
d, rnd, build, conns, load, best = sys.argv[1:]
rps = json.load(open(d + "/profile_export_aiperf.json"))["request_throughput"]["avg"]
a, b = json.load(open(d + ".cpu0")), json.load(open(d + ".cpu1"))
per = lambda names: sum(b[n][0] + b[n][1] - a.get(n, [0, 0])[0] - a.get(n, [0, 0])[1] for n in names) / (rps * 5) * 1e6
loop = per([n for n in b if n.startswith("http-loop")])
proc = per([n for n in b if n.startswith("record-proc")])
print(f"{rnd}\t{build}\t{conns}\t{load}\t{rps:.0f}\t{float(best):.0f}\t{rps / float(best):.2f}\t{loop:.1f}\t{proc:.1f}\t{per(list(b)):.1f}")
PY
      tail -1 "$out/rows.tsv" >&2
    done
  done
done
cat "$out/rows.tsv"
python3 - "$out/rows.tsv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
for conns in sorted({r["conns"] for r in rows}, key=int):
    for build in ("A", "B"):
        rs = [r for r in rows if r["conns"] == conns and r["build"] == build]
        if rs:
            med = {k: statistics.median(float(r[k]) for r in rs) for k in ("load", "ratio", "loop_us", "processor_us", "all_us")}
            print(f"median {build} at {conns}: n={len(rs)} load {med['load']:.1f} ratio {med['ratio']:.2f} "
                  f"loop {med['loop_us']:.1f} processor {med['processor_us']:.1f} all {med['all_us']:.1f} us/request")
PY
