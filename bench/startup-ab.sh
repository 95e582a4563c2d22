#!/usr/bin/env bash
# Time from the command to the first request, two distributions alternated (bench/history/analyses-2026-12.md,
# "First request"):
# each run is `DIST/bin/aiperf profile` against the timing server (bench/lib/cadence_server.py), the point
# cadence-c64 of bench/peers.sh (256 streamed requests at concurrency 64), timed as P5 of bench/run.sh does: the
# command's start (date +%s%N) to the server's own stamp of the first request's arrival. Each distribution keeps its
# own class-data cache, warmed by two runs first (the launcher lists the classes, then builds the archive), so the
# figures are those of a warm start. The order of A and B swaps every round. Prints one line per run and the medians.
#
# Usage: A=dist-old B=dist-new bench/startup-ab.sh   (a distribution is a folder with bin/aiperf and lib/aiperf.jar,
#        e.g. an unpacked engine/target/aiperf-*.tar.gz; ROUNDS=9)
set -euo pipefail
cd "$(dirname "$0")/.."
a=${A:?A=old distribution folder}; b=${B:?B=new distribution folder}
rounds=${ROUNDS:-9}
port=${PORT:-18765}
out=$(mktemp -d)
python3 bench/lib/cadence_server.py --port "$port" --ttft-ms 50 --itl-ms 20 --tokens 20 --stamps "$out/stamps.txt" \
  > "$out/cadence.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/reset" >/dev/null 2>&1 && break; sleep 0.1; done

one() { # one DIST CACHE : prints ms from the command to the first request
  curl -sf "http://127.0.0.1:$port/reset" >/dev/null
  local t0 first
  t0=$(date +%s%N)
  AIPERF_CACHE_DIR="$2" "$1/bin/aiperf" profile -m m --tokenizer builtin --ui none --no-server-metrics \
    --artifact-dir "$out/run" -u "http://127.0.0.1:$port" --endpoint-type chat --request-count 256 --isl 16 \
    --osl 20 --streaming --concurrency 64 > "$out/run.log" 2>&1
  first=$(curl -sf "http://127.0.0.1:$port/first")
  echo $(( (first - t0) / 1000000 ))
}
for d in "$a" "$b"; do # warm: the class list, then the archive
  one "$d" "$out/cache-$(basename "$d")" > /dev/null
  one "$d" "$out/cache-$(basename "$d")" > /dev/null
done
printf 'round\tbuild\tload1\tfirst_ms\n'
for round in $(seq "$rounds"); do
  order="A B"; [ $((round % 2)) = 0 ] && order="B A"
  for build in $order; do
    d=$a; [ "$build" = B ] && d=$b
    printf '%s\t%s\t%s\t%s\n' "$round" "$build" "$(cut -d' ' -f1 /proc/loadavg)" "$(one "$d" "$out/cache-$(basename "$d")")"
  done
done | tee "$out/rows.tsv"
for build in A B; do
  awk -F'\t' -v b="$build" '$2 == b {print $4}' "$out/rows.tsv" | sort -n \
    | awk -v b="$build" '{v[NR]=$1} END {printf "%s: median %d ms of %d runs (min %d, max %d)\n", b, v[int((NR+1)/2)], NR, v[1], v[NR]}'
done
awk -F'\t' '{s+=$3; n++} END {printf "load average (1 min) during the runs: %.1f mean\n", s/n}' "$out/rows.tsv"
