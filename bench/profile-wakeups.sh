#!/usr/bin/env bash
# Why P3's chunk stamps are late: the scheduler's view of the client's reading threads
# (bench/history/analyses-2026-12.md, part 8).
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
out=$(mktemp -d) # perf's recordings, hundreds of MB: removed at the end unless KEEP=1
perf sched record -k monotonic -o "$out/probe.data" -- true >/dev/null 2>&1 \
  || { echo "perf cannot record the sched tracepoints here (run as root, or lower perf_event_paranoid)" >&2; exit 2; }
port=18682
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  pkill -f -- "-o $out/" 2>/dev/null || true # a recording still running after an interrupt
  [ "${KEEP:-0}" = 1 ] || rm -rf "$out"
}
trap cleanup EXIT
note() { echo "[wakeups] $*" >&2; }
source bench/lib/cadence.sh
start_cadence "$port"
traced() { # traced NAME COMMAND... : runs COMMAND (at most 5 minutes) under perf sched, all cores; prints its pid
  local name=$1; shift
  perf sched record -k monotonic -o "$out/$name.data" -- timeout 300 "$@" > "$out/$name.log" 2>&1 &
  local rec=$! pid="" t
  for _ in $(seq 500); do # perf's child is timeout, whose child is the command
    t=$(pgrep -P "$rec" | head -1 || true)
    [ -z "$t" ] || pid=$(pgrep -P "$t" | head -1 || true)
    [ -n "$pid" ] && break
    sleep 0.01
  done
  wait "$rec" || note "$name failed: $(tail -3 "$out/$name.log")"
  [ -n "$pid" ] || { note "$name: its process was not found under perf"; return 1; }
  echo "$pid"
}

for conc in ${STREAMS:-64 256}; do
  count=$(( conc * 4 ))
  report="$out/wakeups-$conc.txt"
  note "$conc streams"
  {
    echo "P3 at $conc streams under perf sched, $jar (commit $(git rev-parse --short HEAD)),"
    echo "$(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg); ${WAVES:-4} waves of warmup, 4 measured."
  } > "$report"
  curl_c reset >/dev/null
  jvm=$(traced "engine-$conc" java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics \
    --artifact-dir "$out/engine-$conc" -u "http://127.0.0.1:$port" --streaming --concurrency "$conc" \
    --warmup-request-count $(( conc * ${WAVES:-4} )) --request-count "$count" --isl 16 --osl 20)
  ref=$(traced "ref-$conc" python3 bench/lib/ref_client.py --port "$port" --concurrency "$conc" \
    --requests-per-stream 4 --out "$out/ref-$conc.txt")
  curl_c flush >/dev/null
  # perf stamps with the monotonic clock (-k monotonic), the runs with the wall clock: the offset, taken now
  offset=$(python3 -c "import time; print(time.time() - time.monotonic())")
  for who in engine reference; do
    if [ "$who" = engine ]; then
      src=(--engine-jsonl "$out/engine-$conc/profile_export.jsonl"); pid=$jvm; comm=http-loop
    else
      src=(--ref "$out/ref-$conc.txt"); pid=$ref; comm=""
    fi
    data="$out/${who/reference/ref}-$conc"
    perf sched timehist -i "$data.data" > "$out/$who-$conc.timehist" 2> "$data.timehist.log" \
      || { note "perf sched timehist failed: $(tail -3 "$data.timehist.log")"; exit 1; }
    {
      echo
      echo "== $who: $(python3 bench/lib/fidelity.py --server "$stamps" "${src[@]}" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"client delay p50 {d['delay_p50_us']:.1f} us, p99 {d['delay_p99_us']:.1f} us,\",
      f\"max {d['delay_max_us']:.1f} us over {d['events']} events\")")"
      python3 bench/lib/sched_who.py "$out/$who-$conc.timehist" --pid "$pid" --comm "$comm" "${src[@]}" \
        --clock-offset "$offset"
      lost=$(grep -ho "[0-9]* lost" "$data.log" "$data.timehist.log" | head -1 || true)
      [ -z "$lost" ] || echo "  perf lost events: $lost"
      # Each switch into the idle task should have its switch out; where those are missing (some kernels under
      # some hypervisors), the run time after an idle period, and the idle time, are misattributed.
      perf script -i "$data.data" -F event,trace 2>/dev/null | awk '/sched_switch/ {
        if ($0 ~ /next_comm=swapper/) into++; if ($0 ~ /prev_comm=swapper/) outof++ }
        END { printf "  perf recorded %d switches into the idle task and %d out of it%s\n", into, outof,
          (outof < 0.95 * into ? ": run times after an idle period and the idle time are not reliable here" : "") }'
    } >> "$report"
  done
  mv "$report" "bench/profiles/wakeups-$conc.txt"
  note "wrote bench/profiles/wakeups-$conc.txt"
done
