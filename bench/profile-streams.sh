#!/usr/bin/env bash
# Where P3's chunk stamps wait (bench/history/analyses-2026-12.md): the engine streaming from the cadence server
# (50 ms to the first
# token, then 20 ms, 20 tokens) at STREAMS streams with a JFR recording of the whole run (top frames per thread,
# bench/lib/jfr_top.py, and each thread's CPU from /proc), then the client delay per event against the server's
# send stamps (bench/lib/fidelity.py). Writes bench/profiles/p3-<streams>[-TAG].txt.
#
# Usage: bench/profile-streams.sh   (STREAMS="64 256"; MODE=never|streaming|always, the reading thread's setting,
#                                    never by default as in the engine; about 30 s per count)
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${JAR:-engine/target/aiperf.jar}
[ -f "$jar" ] || mvn -B -q -o package -DskipTests -Djazzer.skip=true -Dmaven.gitcommitid.skip=true -pl engine
out=$(mktemp -d)
port=18632
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
source bench/lib/cadence.sh
start_cadence "$port"
sed -e '/method-sampling-java-interval/s/>10 ms</>2 ms</' -e '/method-sampling-native-interval/s/>20 ms</>4 ms</' \
  "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" > "$out/sampling.jfc"
mkdir -p bench/profiles
for streams in ${STREAMS:-64 256}; do
  report="bench/profiles/p3-$streams${TAG:+-$TAG}.txt"
  count=$(( streams * 4 ))
  curl -sf "http://127.0.0.1:$port/reset" >/dev/null
  l0=$(cut -d' ' -f1-3 /proc/loadavg)
  JAVA_TOOL_OPTIONS="-Daiperf.readingThread=${MODE:-never} -XX:StartFlightRecording=settings=$out/sampling.jfc,filename=$out/p3-$streams.jfr" \
    timeout 120 java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics \
    --artifact-dir "$out/p3-$streams" -u "http://127.0.0.1:$port" --streaming --concurrency "$streams" \
    --warmup-request-count "$count" --request-count "$count" --isl 16 --osl 20 > "$out/p3-$streams.log" 2>&1 &
  tpid=$!; sleep 1; jpid=$(pgrep -P "$tpid" java || echo "$tpid")
  echo '{}' > "$out/cpu.json"
  while kill -0 "$jpid" 2>/dev/null; do # each thread's last reading before it ended
    python3 bench/lib/thread_cpu.py "$jpid" > "$out/cpu.json.new" 2>/dev/null && python3 -c "
import json; a, b = json.load(open('$out/cpu.json')), json.load(open('$out/cpu.json.new'))
a.update({n: v for n, v in b.items() if sum(v) >= sum(a.get(n, [0, 0]))}); json.dump(a, open('$out/cpu.json', 'w'))" || true
    sleep 0.5
  done
  wait "$tpid" || true
  curl -sf "http://127.0.0.1:$port/flush" >/dev/null
  {
    echo "P3 at $streams streams against the cadence server, $jar (commit $(git rev-parse --short HEAD)), reading thread ${MODE:-never}, $(date -u +%Y-%m-%dT%H:%MZ), load $l0 before, $(cut -d' ' -f1-3 /proc/loadavg) after."
    echo "client delay per event (engine stamp minus server send stamp): $(python3 bench/lib/fidelity.py --server "$stamps" --engine-jsonl "$out/p3-$streams/profile_export.jsonl")"
    echo "CPU per thread over the whole run (warmup and profiling; each thread as last read, every half second):"
    python3 -c "
import json; d = json.load(open('$out/cpu.json'))
for n, (u, s) in sorted(d.items(), key=lambda kv: -sum(kv[1])):
    if u + s >= 0.05: print(f'  {n:24s} user {u:5.2f} s  sys {s:5.2f} s')"
    echo
    python3 bench/lib/jfr_top.py "$out/p3-$streams.jfr" 12
  } > "$report"
  echo "[profile-streams] wrote $report" >&2
done
