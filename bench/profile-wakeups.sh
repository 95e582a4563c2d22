#!/usr/bin/env bash
# Why P3's chunk stamps are late: the scheduler's view of the client's reading threads (bench/RESULTS.md, part 8).
# At each stream count, the engine and then the reference client run P3's settings against the cadence server
# under `perf sched record`; for each, the stamps' client delay (bench/lib/fidelity.py) and, inside the measured
# window, the reading threads' scheduling delays (woken to running) and what else the cores ran while a wake-up
# waited (bench/lib/sched_who.py). Writes bench/profiles/wakeups-<streams>.txt.
#
# Usage: bench/profile-wakeups.sh   (STREAMS="64 256"; WAVES=4 waves of warmup; about 40 s per count; needs perf
#                                   (Debian's linux-perf) with access to the sched tracepoints, usually as root)
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${JAR:-engine/target/aiperf.jar}
[ -f "$jar" ] || mvn -B -q -o package -DskipTests -Djazzer.skip=true -Dmaven.gitcommitid.skip=true -pl engine
command -v perf >/dev/null || { echo "perf is required (apt-get install -y linux-perf)" >&2; exit 2; }
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
out=$(mktemp -d)
perf sched record -o "$out/probe.data" -- true >/dev/null 2>&1 \
  || { echo "perf cannot record the sched tracepoints here (run as root, or lower perf_event_paranoid)" >&2; exit 2; }
port=18682
stamps="$out/server-stamps.txt"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
note() { echo "[wakeups] $*" >&2; }
curl_c() { curl -sf "http://127.0.0.1:$port/$1"; }
python3 bench/lib/cadence_server.py --port "$port" --ttft-ms 50 --itl-ms 20 --tokens 20 --stamps "$stamps" \
  > "$out/cadence.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl_c reset >/dev/null 2>&1 && break; sleep 0.1; done
python3 bench/lib/ref_client.py --port "$port" --concurrency 4 --requests-per-stream 2 --out "$out/warm.txt"
# perf's clock is the kernel's monotonic one; the stamps are wall-clock nanoseconds
offset=$(python3 -c "import time; print(time.time() - time.monotonic())")

traced() { # traced NAME COMMAND... : runs COMMAND under perf sched (all cores) and prints its process id
  local name=$1; shift
  perf sched record -o "$out/$name.data" -- "$@" > "$out/$name.log" 2>&1 &
  local rec=$! child=""
  for _ in $(seq 200); do child=$(pgrep -P "$rec" | head -1 || true); [ -n "$child" ] && break; sleep 0.01; done
  wait "$rec" || note "$name failed, see $out/$name.log"
  echo "$child"
}

for conc in ${STREAMS:-64 256}; do
  count=$(( conc * 4 ))
  report="bench/profiles/wakeups-$conc.txt"
  note "$conc streams"
  {
    echo "P3 at $conc streams under perf sched, $jar (commit $(git rev-parse --short HEAD)), $(date -u +%Y-%m-%dT%H:%MZ),"
    echo "load $(cut -d' ' -f1-3 /proc/loadavg); ${WAVES:-4} waves of warmup, 4 measured."
  } > "$report"
  curl_c reset >/dev/null
  jvm=$(traced "engine-$conc" java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics \
    --artifact-dir "$out/engine-$conc" -u "http://127.0.0.1:$port" --streaming --concurrency "$conc" \
    --warmup-request-count $(( conc * ${WAVES:-4} )) --request-count "$count" --isl 16 --osl 20)
  ref=$(traced "ref-$conc" python3 bench/lib/ref_client.py --port "$port" --concurrency "$conc" \
    --requests-per-stream 4 --out "$out/ref-$conc.txt")
  curl_c flush >/dev/null
  for who in engine reference; do
    if [ "$who" = engine ]; then
      src=(--engine-jsonl "$out/engine-$conc/profile_export.jsonl"); pid=$jvm; comm=http-loop
    else
      src=(--ref "$out/ref-$conc.txt"); pid=$ref; comm=""
    fi
    perf sched timehist -i "$out/${who/reference/ref}-$conc.data" > "$out/$who-$conc.timehist" 2>/dev/null
    {
      echo
      echo "== $who: $(python3 bench/lib/fidelity.py --server "$stamps" "${src[@]}" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"client delay p50 {d['delay_p50_us']:.1f} us, p99 {d['delay_p99_us']:.1f} us,\",
      f\"max {d['delay_max_us']:.1f} us over {d['events']} events\")")"
      python3 bench/lib/sched_who.py "$out/$who-$conc.timehist" --pid "$pid" --comm "$comm" "${src[@]}" \
        --clock-offset "$offset"
    } >> "$report"
  done
  note "wrote $report"
done
