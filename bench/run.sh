#!/usr/bin/env bash
# Peer benchmark: the engine's request rate next to wrk's against the same mock, in one script run, plus a
# streaming run (256 tokens at concurrency 256). Ratios only: the machine is shared and noisy.
# Usage: bench/run.sh [seconds]   (needs wrk: apt-get install -y wrk)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
port=18555
jar=engine/target/aiperf.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
out=$(mktemp -d)
java -jar "$jar" mock-server --port $port --fast > "$out/mock.log" 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done

body='{"messages":[{"role":"user","content":"the harbor woke before the town did and the gulls walked along the stones"}],"model":"m","stream":false,"max_completion_tokens":16}'
cat > "$out/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
LUA
# Warm both sides up before measuring.
wrk -t2 -c50 -d3s -s "$out/post.lua" "http://127.0.0.1:$port/v1/chat/completions" >/dev/null
wrk_rps=$(wrk -t2 -c50 -d${secs}s -s "$out/post.lua" "http://127.0.0.1:$port/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')

java -jar "$jar" profile -m m -u "http://127.0.0.1:$port" --concurrency 50 --benchmark-duration 3 \
  --isl 16 --osl 16 --artifact-dir "$out/warm" >/dev/null 2>&1
java -jar "$jar" profile -m m -u "http://127.0.0.1:$port" --concurrency 50 --benchmark-duration "$secs" \
  --isl 16 --osl 16 --artifact-dir "$out/engine" >/dev/null 2>&1
engine_rps=$(python3 -c "import json;print(round(json.load(open('$out/engine/profile_export_aiperf.json'))['request_throughput']['avg'],1))")

/usr/bin/time -f "%U %S" -o "$out/cpu.txt" java -jar "$jar" profile -m m -u "http://127.0.0.1:$port" --streaming \
  --concurrency 256 --request-count 2048 --isl 16 --osl 256 --artifact-dir "$out/stream" >/dev/null 2>&1
read -r user sys < "$out/cpu.txt"
read -r events duration < <(python3 - "$out/stream" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/profile_export_aiperf.json"))
n = d["request_count"]["avg"] * d["output_sequence_length"]["avg"]
print(int(n), d["benchmark_duration"]["avg"])
PY
)
ratio=$(python3 -c "print(round($engine_rps/$wrk_rps,2))")
eps=$(python3 -c "print(round($events/$duration))")
cpu_per_k=$(python3 -c "print(round(($user+$sys)/($events/1000.0),4))")
echo "wrk_rps=$wrk_rps engine_rps=$engine_rps ratio=$ratio stream_events_per_s=$eps client_cpu_s_per_1000_events=$cpu_per_k"
cat >> bench/RESULTS.md <<MD

## $(date -u +%Y-%m-%dT%H:%MZ) ($(nproc) cores, ${secs}s per run)
| measurement | value |
|---|---|
| wrk, 50 connections, non-streaming, mock --fast | $wrk_rps req/s |
| aiperf-java, concurrency 50, same target | $engine_rps req/s |
| ratio engine / wrk (target >= 0.5) | $ratio |
| streaming, 256 tokens, concurrency 256: SSE events/s | $eps |
| client CPU seconds per 1,000 events (user+sys, whole JVM incl. start-up) | $cpu_per_k |
MD
