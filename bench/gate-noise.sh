#!/usr/bin/env bash
# Does a one-trial gate know the noise? (src-docs/gating.md, "One trial per side")
#
# Two mock servers on loopback, one with a 20 ms TTFT and one with 40 ms. Each round runs one trial of 200
# requests as the baseline (20 ms), one as a candidate on the same server, and one on the doubled one, then gates
# both candidates against the baseline with gating.md's headline rules (taken from the page itself). The same
# server must pass every round (exit 0) and the doubled TTFT must fail every round (exit 1).
#
# Usage: bench/gate-noise.sh            (10 rounds, about 5 minutes on 2 cores; GATE_NOISE_ROUNDS=N to change)
# Appends a section to bench/history/runs.md. Exit 0 when every round gave the expected verdict, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${GATE_NOISE_ROUNDS:-10}
[ "$rounds" -ge 1 ] && [ "$rounds" -le 50 ] || { echo "GATE_NOISE_ROUNDS must be 1..50" >&2; exit 2; }
[ -f engine/target/aiperf.jar ] || mvn -B -q package -DskipTests -pl engine
work=$(mktemp -d)
port_same=18661
port_slow=18662
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# The rules are the page's headline block, so this measures what users copy.
awk '/<!-- docs-test: file gate.yaml -->/ {grab=1; next} grab && /^```yaml/ {inside=1; next}
     inside && /^```/ {exit} inside {print}' src-docs/gating.md > "$work/gate.yaml"
[ -s "$work/gate.yaml" ] || { echo "no headline rules found in src-docs/gating.md" >&2; exit 2; }

start_mock() { # start_mock PORT TTFT_MS
  bin/aiperf mock-server --port "$1" --ttft "$2" > "$work/mock-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$1/health" > /dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "mock on port $1 did not start" >&2
  exit 2
}
start_mock "$port_same" 20
start_mock "$port_slow" 40

profile() { # profile PORT DIR: one trial of 200 requests, gating.md's headline command
  timeout 300 bin/aiperf profile -m mock --tokenizer builtin -u "http://127.0.0.1:$1" --streaming --osl 20 \
    --concurrency 4 --request-count 200 --artifact-dir "$2" > "$2.log" 2>&1
}

gate() { # gate BASELINE CANDIDATE OUT: prints "exit verdict p change%" of the TTFT rule
  local status=0
  timeout 120 bin/aiperf gate --rules "$work/gate.yaml" --baseline "$1" --candidate "$2" --output-dir "$3" \
    > "$3.log" 2>&1 || status=$?
  python3 - "$3/gate_result.json" "$status" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
ttft = next(x for x in r["rules"] if x["metric"] == "time_to_first_token")
p = "n/a" if ttft["p_value"] is None else "%.3g" % ttft["p_value"]
change = "n/a" if ttft["delta_pct"] is None else "%+.1f%%" % ttft["delta_pct"]
print(sys.argv[2], r["verdict"], p, change)
EOF
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%MZ)
same_pass=0
slow_fail=0
rows=""
for i in $(seq 1 "$rounds"); do
  base="$work/base-$i"; same="$work/same-$i"; slow="$work/slow-$i"
  profile "$port_same" "$base"
  profile "$port_same" "$same"
  profile "$port_slow" "$slow"
  mkdir -p "$work/gate-same-$i" "$work/gate-slow-$i"
  read -r s_exit s_verdict s_p s_change < <(gate "$base" "$same" "$work/gate-same-$i")
  read -r f_exit f_verdict f_p f_change < <(gate "$base" "$slow" "$work/gate-slow-$i")
  [ "$s_exit" = 0 ] && same_pass=$((same_pass + 1))
  [ "$f_exit" = 1 ] && slow_fail=$((slow_fail + 1))
  echo "[gate-noise] round $i: same server $s_verdict (exit $s_exit, TTFT $s_change, p=$s_p); doubled TTFT $f_verdict (exit $f_exit, $f_change, p=$f_p)" >&2
  [ "$s_exit" = 0 ] || sed -n '1,20p' "$work/gate-same-$i.log" >&2
  [ "$f_exit" = 1 ] || sed -n '1,20p' "$work/gate-slow-$i.log" >&2
  rows+="| $i | $s_verdict (exit $s_exit) | $s_change | $s_p | $f_verdict (exit $f_exit) | $f_change | $f_p |"$'\n'
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo
  echo "## $started · gate-noise · commit $(git rev-parse --short HEAD) · 2 cores · load $load_before before, $load_after after"
  echo
  echo "\`bench/gate-noise.sh\`: one trial of 200 requests per side, gating.md's headline rules; mocks with a 20 ms"
  echo "and a 40 ms TTFT. The same server passed $same_pass of $rounds rounds; the doubled TTFT failed $slow_fail of $rounds."
  echo
  echo "| round | same server | TTFT change | p | doubled TTFT | TTFT change | p |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
} >> bench/history/runs.md
echo "same server passed $same_pass/$rounds, doubled TTFT failed $slow_fail/$rounds (bench/history/runs.md)" >&2
[ "$same_pass" = "$rounds" ] && [ "$slow_fail" = "$rounds" ]
