#!/usr/bin/env bash
# The reading thread measured against the loop without it, in the same minutes
# (bench/history/analyses-2026-12.md): P3's chunk
# stamps at 64 and 256 streams against the cadence server, next to the reference client, for
# -Daiperf.readingThread=never (the loop reads, stamps, frames and parses) and =streaming (a reading thread only
# reads and stamps), alternated for ROUNDS rounds; then P1 at 50 connections against nginx, non-streamed, with
# =never and =always next to wrk, to decide whether the reading thread pays for requests that do not stream.
#
# Usage: bench/reading-thread.sh   (ROUNDS=2; P1=0 skips P1; about 5 minutes on 2 cores; the jar is built when
#                                  missing)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-2}
jar=engine/target/aiperf.jar
[ -f "$jar" ] || mvn -B -q -o package -DskipTests -Djazzer.skip=true -Dmaven.gitcommitid.skip=true -pl engine
out=$(mktemp -d)
nginx_port=18611
nginx_tls_port=18613
cadence_port=18612
have_openssl=0
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
note() { echo "[reading-thread] $*" >&2; }
load() { cut -d' ' -f1 /proc/loadavg; }
source bench/lib/nginx.sh
source bench/lib/cadence.sh
start_cadence "$cadence_port"

for round in $(seq "$rounds"); do
  order="never streaming"; [ $((round % 2)) = 0 ] && order="streaming never" # neither setting always runs second
  for mode in $order; do
    for conc in 64 256; do
      count=$(( conc * 4 ))
      l0=$(load)
      curl_c reset >/dev/null
      JAVA_TOOL_OPTIONS="-Daiperf.readingThread=$mode" engine "$out/p3-$mode-$conc-$round" \
        -u "http://127.0.0.1:$cadence_port" --streaming --concurrency "$conc" --warmup-request-count "$count" \
        --request-count "$count" --isl 16 --osl 20 || continue
      python3 bench/lib/ref_client.py --port "$cadence_port" --concurrency "$conc" --requests-per-stream 4 \
        --out "$out/p3-ref-$mode-$conc-$round.txt"
      curl_c flush >/dev/null
      e=$(python3 bench/lib/fidelity.py --server "$stamps" --engine-jsonl "$out/p3-$mode-$conc-$round/profile_export.jsonl")
      r=$(python3 bench/lib/fidelity.py --server "$stamps" --ref "$out/p3-ref-$mode-$conc-$round.txt")
      python3 - "$mode" "$conc" "$round" "$l0" "$(load)" "$e" "$r" <<'PY'
import json, sys
mode, conc, rnd, l0, l1, e, r = sys.argv[1:]
e, r = json.loads(e), json.loads(r)
print(f"P3 round {rnd} {mode:9s} {conc:>3s} streams, load {l0}-{l1}: engine p50/p99 {e['delay_p50_us']/1e3:.2f}/"
      f"{e['delay_p99_us']/1e3:.2f} ms, reference {r['delay_p50_us']/1e3:.2f}/{r['delay_p99_us']/1e3:.2f} ms, "
      f"p99 ratio {e['delay_p99_us']/r['delay_p99_us']:.2f} ({e['events']} and {r['events']} events)")
PY
    done
  done
done

wrk_best() {
  local best=0 r
  for t in 1 2; do
    r=$(wrk -t$t -c50 -d5s -s "$out/post.lua" "$url/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')
    best=$(python3 -c "print(max($best, ${r:-0}))")
  done
  echo "$best"
}
if [ "${P1:-1}" = 1 ] && command -v wrk >/dev/null; then
  wrk -t2 -c50 -d2s -s "$out/post.lua" "$url/v1/chat/completions" >/dev/null
  for round in $(seq "$rounds"); do
    for mode in never always; do
      l0=$(load)
      w=$(wrk_best)
      JAVA_TOOL_OPTIONS="-Daiperf.readingThread=$mode" engine "$out/p1-$mode-$round" -u "$url" --concurrency 50 \
        --warmup-duration 5 --benchmark-duration 8 --isl 16 --osl 16 || continue
      rps=$(summary "$out/p1-$mode-$round" "d['request_throughput']['avg']")
      python3 -c "print(f'P1 round $round ${mode}: 50 connections, load $l0-$(load): engine {float($rps):,.0f} req/s, wrk best {float($w):,.0f}, ratio {float($rps)/float($w):.2f}')"
    done
  done
fi
note "done ($out holds the runs)"
