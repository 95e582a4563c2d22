#!/usr/bin/env bash
# P7: 50,000 concurrent streams on one machine, across 3 shard processes (profile --shard I/3 with a common
# --start-at), against 4 mock-server processes behind 4 URLs (12,500 streams each: no process needs more descriptors
# than this environment's hard limit of 20,000, which makes 50,000 streams in one client process impossible here).
# The shards are merged with `aiperf aggregate`. Reports errors, each shard's heap after GC and RSS, client CPU per
# 1,000 events, each shard's client health, and the merged TTFT against the servers' truth (first token after 1 s).
# A separate script because it does not fit bench/run.sh's 15 minutes next to P1-P6 on 2 cores; about 2 minutes.
# Appends a section to bench/history/runs.md and writes bench/results-shards.json.
#
# Usage: bench/shards.sh         (STREAMS=50000 SERVERS=4 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
jar=engine/target/aiperf.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests -Djazzer.skip=true -pl engine
streams=${STREAMS:-50000}
servers=${SERVERS:-4}
shards=3
out=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
urls=()
for i in $(seq "$servers"); do
  port=$((18630 + i))
  JAVA_TOOL_OPTIONS="-Xmx1g" java -jar "$jar" mock-server -p "$port" -t 1000 --itl 1000 > "$out/mock-$i.log" 2>&1 &
  pids+=($!)
  urls+=(-u "http://127.0.0.1:$port")
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && break; sleep 0.1; done
done
# Every shard opens its connections first (preconnect), then waits for the common start.
start_at=$(date -u -d "+${START_IN:-40} seconds" +%Y-%m-%dT%H:%M:%SZ)
echo "[shards] $streams streams, $shards shards, $servers servers, start at $start_at (load $load_before)" >&2
shard_pids=()
for s in $(seq "$shards"); do
  /usr/bin/time -f "%U %S %M %e" -o "$out/shard-$s.time" env JAVA_TOOL_OPTIONS="-Xmx1g -Xlog:gc:file=$out/shard-$s-gc.log" \
    java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$out/shard-$s" \
    "${urls[@]}" --streaming --concurrency "$streams" --request-count "$streams" --isl 16 --osl 5 \
    --shard "$s/$shards" --start-at "$start_at" > "$out/shard-$s.log" 2>&1 &
  shard_pids+=($!)
done
failed=0
for p in "${shard_pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
[ "$failed" = 0 ] || echo "[shards] $failed shard(s) exited non-zero: see $out/shard-*.log" >&2
java -jar "$jar" aggregate --output-dir "$out/merged" "$out"/shard-[0-9] > "$out/aggregate.log" 2>&1 \
  || echo "[shards] aggregate exited non-zero: $(tail -3 "$out/aggregate.log")" >&2
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$out" "$shards" "$streams" "$servers" "$load_before" "$load_after" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" <<'PY' >> bench/history/runs.md
import glob, json, os, re, sys
out, shards, streams, servers, before, after, commit = sys.argv[1:]
shards = int(shards)
def summary(d):
    p = glob.glob(d + "/**/profile_export_aiperf.json", recursive=True)
    return json.load(open(p[0])) if p else None
rows, results = [], {"streams": int(streams), "servers": int(servers), "shards": []}
for s in range(1, shards + 1):
    d = f"{out}/shard-{s}"
    user, sys_, rss_kb, wall = open(d + ".time").read().split()[-4:]
    heap = 0
    for line in open(d + "-gc.log"):
        m = re.search(r"->(\d+)M\(", line)
        if m:
            heap = max(heap, int(m.group(1)))
    sm = summary(d)
    req = sm["request_count"]["avg"] if sm else 0
    errs = sm.get("error_request_count", {}).get("avg", 0) if sm else None
    h = sm["client_health"] if sm else {}
    t = h.get("transport", {})
    cpu = float(user) + float(sys_)
    r = {"shard": s, "requests": req, "errors": errs, "heap_after_gc_max_mb": heap, "rss_max_mb": int(rss_kb) // 1024,
         "cpu_s": round(cpu, 2), "cpu_s_per_1000_events": round(cpu / (req * 5 / 1000), 4) if req else None,
         "wall_s": float(wall), "client_limited_by": h.get("client_limited_by"),
         "wakeup_delay_p99_ms": h.get("wakeup_delay_p99_ms"), "pool_wait_p99_ms": t.get("pool_wait_p99_ms"),
         "connects_waited": t.get("connects"), "record_queue_waits": h.get("record_queue_waits"),
         "ttft_p50_ms": sm["time_to_first_token"]["p50"] if sm else None,
         # the run's own verdict: the checks that did not pass (client_limited_by judges open loops only)
         "validity": [f"{c['name']} {c['result']}" for c in sm.get("validity", {}).get("checks", [])
                      if c["result"] != "ok"] if sm else None}
    results["shards"].append(r)
m = summary(out + "/merged")
results["merged"] = None if not m else {
    "requests": m["request_count"]["avg"], "errors": m.get("error_request_count", {}).get("avg", 0),
    "ttft_p50_ms": m["time_to_first_token"]["p50"], "ttft_p99_ms": m["time_to_first_token"]["p99"],
    "ttft_truth_ms": 1000}
json.dump(results | {"commit": commit, "load_before": before, "load_after": after},
          open("bench/results-shards.json", "w"), indent=1)
f = lambda v, d=1: "-" if v is None else (f"{v:,.{d}f}" if isinstance(v, float) else f"{v:,}")
print(f"\n## P7 (bench/shards.sh): {int(streams):,} streams across {shards} shards · commit {commit} · load {before} "
      f"before, {after} after")
print(f"{servers} mock-server processes (first token after 1 s, then 1 per s, 5 tokens), one URL each; each shard "
      f"-Xmx1g, started together with --start-at after its preconnect.\n")
print("| shard | requests | errors | heap after GC, max | RSS max | CPU s | CPU s per 1,000 events | TTFT p50 ms | "
      "pool wait p99 ms | wake-up p99 ms | client limited by | validity |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in results["shards"]:
    print(f"| {r['shard']} | {f(r['requests'], 0)} | {f(r['errors'], 0)} | {r['heap_after_gc_max_mb']} MB | "
          f"{r['rss_max_mb']} MB | {r['cpu_s']} | {f(r['cpu_s_per_1000_events'], 4)} | {f(r['ttft_p50_ms'], 1)} | "
          f"{f(r['pool_wait_p99_ms'], 3)} | {f(r['wakeup_delay_p99_ms'], 3)} | "
          f"{', '.join(r['client_limited_by'] or []) or 'nothing'} | {', '.join(r['validity'] or []) or 'ok'} |")
mm = results["merged"]
if mm:
    print(f"\nMerged (`aiperf aggregate`): {f(mm['requests'], 0)} requests, {f(mm['errors'], 0)} errors, TTFT p50 "
          f"{f(mm['ttft_p50_ms'], 1)} ms and p99 {f(mm['ttft_p99_ms'], 1)} ms against the servers' 1,000 ms.")
else:
    print("\nMerged: no merged summary (see the aggregate log).")
PY
echo "[shards] done: bench/history/runs.md and bench/results-shards.json ($out holds the runs)" >&2
