#!/usr/bin/env bash
# Performance against peers and known truths, in one run (src-docs/performance.md). Every figure is a ratio against
# a peer measured minutes apart in this same script, or an error against a known truth: the machine is shared and
# noisy, so absolute numbers mean little. Appends a section to bench/history/runs.md and writes bench/results.json.
#
#   P1  req/s against nginx (canned chat completion, loopback) next to wrk, h2load and hey, each at its best setting
#       (1 or 2 threads), at 50 and 500 connections
#   P1S the same over https (nginx with TLS, self-signed): engine and wrk (best of -t1 and -t2) over http and https in
#       turn, at 50 connections; the https ratio to wrk next to the http one
#   P2  open-loop accuracy (constant and Poisson, 5k to 50k req/s): achieved vs target, inter-arrival CV, lag p99,
#       and the engine's own verdict
#   P3  chunk-stamp fidelity against a server with a known cadence that stamps its own sends (not the client's JVM),
#       next to a minimal reference client, at 1, 4, 64 and 256 streams
#   P4  10,000 concurrent streams in -Xmx1g: errors, heap high-water, CPU per 1,000 events, TTFT split
#   P5  process start to first request on the wire, and the wall time of a one-request run
#   P6  cold-start bias: first-wave minus steady-state client delay, against an already-warm server
#   J   JMH microbenchmarks (microbench/): the response path and the SSE framer per event, the record path per
#       request, the statistics per run, each with the bytes allocated (-prof gc)
#
# Usage: bench/run.sh            (about 10 minutes on 2 cores, at most 15; BENCH_SECS=8 per load run; BENCH_ONLY=P1 stops after P1S)
# Needs: java, python3, curl; nginx-light, wrk, hey and nghttp2-client are installed with apt when missing (as root),
# or the peer is skipped with the reason printed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${BENCH_SECS:-8}
jar=engine/target/aiperf.jar
jmh=microbench/target/microbench.jar
if [ "${BENCH_ONLY:-}" = P1 ]; then
  [ -f "$jar" ] || mvn -B -q package -DskipTests -Djazzer.skip=true -pl engine
else
  [ -f "$jar" ] && [ -f "$jmh" ] || mvn -B -q package -DskipTests -Djazzer.skip=true -pl engine,microbench
fi
out=$(mktemp -d)
results="$out/results.jsonl"
: > "$results"
nginx_port=18601
cadence_port=18602
nginx_tls_port=18603
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

note() { echo "[bench] $*" >&2; }
record() { echo "$1" >> "$results"; }

# --- tools -----------------------------------------------------------------------------------------------------
ensure() { # ensure COMMAND DEBIAN_PACKAGE
  command -v "$1" >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    note "installing $2"
    apt-get install -y -q "$2" >/dev/null 2>&1 || true
  fi
  command -v "$1" >/dev/null || { note "skipping $1: not installed and could not install $2"; return 1; }
}
have_nginx=1; ensure nginx nginx-light || have_nginx=0
have_wrk=1; ensure wrk wrk || have_wrk=0
have_hey=1; ensure hey hey || have_hey=0
have_h2load=1; ensure h2load nghttp2-client || have_h2load=0
have_openssl=1; ensure openssl openssl || have_openssl=0
[ "$have_nginx" = 1 ] || { echo "nginx is required (apt-get install -y nginx-light)" >&2; exit 2; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# --- the neutral server (nginx answering every POST with a canned chat completion) and the engine runner ---
source bench/lib/nginx.sh

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
versions="nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), wrk $(dpkg-query -W -f='${Version}' wrk 2>/dev/null || echo -),"
versions="$versions hey $(dpkg-query -W -f='${Version}' hey 2>/dev/null || echo -), h2load $(dpkg-query -W -f='${Version}' nghttp2-client 2>/dev/null || echo -),"
versions="$versions $(java -version 2>&1 | head -1), $(python3 --version)"

# --- P1: request rate next to the peers ------------------------------------------------------------------------
# Each peer at each of its settings (wrk and h2load with 1 and 2 threads, hey on 1 and 2 cores): on 2 cores shared
# with nginx a peer's second thread competes with nginx and with itself, so either may win. Every setting is
# recorded; the report compares the engine with each peer's best (src-docs/performance.md).
for conns in 50 500; do
  note "P1: $conns connections (load $(cut -d' ' -f1 /proc/loadavg))"
  if [ "$have_wrk" = 1 ]; then
    wrk -t2 -c"$conns" -d2s -s "$out/post.lua" "$url/v1/chat/completions" >/dev/null # warm nginx
    for t in 1 2; do
      rps=$(wrk -t"$t" -c"$conns" -d"${secs}s" -s "$out/post.lua" "$url/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')
      record "{\"section\":\"P1\",\"tool\":\"wrk\",\"setting\":\"-t$t\",\"connections\":$conns,\"rps\":${rps:-null}}"
    done
  fi
  if [ "$have_h2load" = 1 ]; then
    for t in 1 2; do
      rps=$(h2load --h1 -t"$t" -c"$conns" -D "$secs" -d "$out/body.json" -H 'Content-Type: application/json' \
        "$url/v1/chat/completions" 2>/dev/null | awk '/^finished in/ {gsub(",","",$4); print $4}')
      record "{\"section\":\"P1\",\"tool\":\"h2load\",\"setting\":\"-t$t\",\"connections\":$conns,\"rps\":${rps:-null}}"
    done
  fi
  if [ "$have_hey" = 1 ]; then
    for c in 1 2; do
      rps=$(hey -cpus "$c" -z "${secs}s" -c "$conns" -m POST -T application/json -D "$out/body.json" \
        "$url/v1/chat/completions" 2>/dev/null | awk '/Requests\/sec/ {print $2}')
      record "{\"section\":\"P1\",\"tool\":\"hey\",\"setting\":\"-cpus $c\",\"connections\":$conns,\"rps\":${rps:-null}}"
    done
  fi
  # 8 s of warmup: on 2 shared cores the JIT compiles for the first 5 to 8 s of load (PrintCompilation), and P1
  # is the steady state a benchmark of any length reaches, next to peers that compile nothing.
  engine "$out/p1-$conns" -u "$url" --concurrency "$conns" --warmup-duration 8 --benchmark-duration "$secs" \
    --isl 16 --osl 16
  rps=$(summary "$out/p1-$conns" "d['request_throughput']['avg']")
  cpu=$(summary "$out/p1-$conns" "d['client_health']['client_cpu_seconds']")
  record "{\"section\":\"P1\",\"tool\":\"aiperf-java\",\"connections\":$conns,\"rps\":$rps,\"client_cpu_s\":$cpu,\"load\":\"$(cut -d' ' -f1 /proc/loadavg)\"}"
done

# --- P1S: the same over https ----------------------------------------------------------------------------------
# http and https in turn, each as wrk's best of -t1 and -t2 (on 2 shared cores either may win) and the engine, so
# the two ratios come from the same minutes.
if [ "$have_wrk" = 1 ] && [ "$have_openssl" = 1 ]; then
  tls_url="https://127.0.0.1:$nginx_tls_port"
  for scheme in http https; do
    u=$url; [ "$scheme" = https ] && u=$tls_url
    note "P1S: $scheme, 50 connections"
    wrk -t2 -c50 -d2s -s "$out/post.lua" "$u/v1/chat/completions" >/dev/null # warm nginx
    best=0
    for t in 1 2; do
      r=$(wrk -t"$t" -c50 -d"${secs}s" -s "$out/post.lua" "$u/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')
      best=$(python3 -c "print(max($best, ${r:-0}))")
    done
    record "{\"section\":\"P1S\",\"scheme\":\"$scheme\",\"tool\":\"wrk\",\"rps\":$best}"
    engine "$out/p1s-$scheme" -u "$u" --ssl-ca-file "$out/nginx/cert.pem" --concurrency 50 --warmup-duration 8 \
      --benchmark-duration "$secs" --isl 16 --osl 16
    rps=$(summary "$out/p1s-$scheme" "d['request_throughput']['avg']")
    proto=$(summary "$out/p1s-$scheme" "d['environment']['connection']['protocol'] + ' ' + (d['environment']['connection']['tls_version'] or 'plain')")
    record "{\"section\":\"P1S\",\"scheme\":\"$scheme\",\"tool\":\"aiperf-java\",\"rps\":$rps,\"protocol\":\"$proto\"}"
  done
fi
if [ "${BENCH_ONLY:-}" = P1 ]; then
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  python3 bench/lib/report.py "$results" "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$(nproc)" "$load_before" \
    "$load_after" "$versions" "$secs" bench/results-p1.json >> bench/history/runs.md
  note "done (P1 only): bench/history/runs.md and bench/results-p1.json ($out holds the runs)"
  exit 0
fi

# --- P2: open-loop accuracy ------------------------------------------------------------------------------------
for pattern in constant poisson; do
  for rate in 5000 10000 20000 50000; do
    note "P2: $pattern $rate req/s"
    d="$out/p2-$pattern-$rate"
    engine "$d" -u "$url" --request-rate "$rate" --arrival-pattern "$pattern" --warmup-duration 5 \
      --benchmark-duration "$secs" --isl 16 --osl 16 || continue
    record "$(python3 - "$d" "$pattern" "$rate" <<'PY'
import json, statistics, sys
d, pattern, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
s = json.load(open(d + "/profile_export_aiperf.json"))
ol = s["client_health"]["open_loop"]["profiling"]
def gaps_of(field):  # sorted inter-arrival gaps of a metadata stamp, read without parsing each line
    key = '"' + field + '":'
    with open(d + "/profile_export.jsonl") as f:
        v = sorted(int(line[line.find(key) + len(key):line.index(",", line.find(key))]) for line in f)
    return [b - a for a, b in zip(v, v[1:])]
gaps = gaps_of("credit_issued_ns")
sgaps = gaps_of("request_start_ns")
cv = lambda g: statistics.pstdev(g) / statistics.mean(g) if g else None
checks = {c["name"]: c["result"] for c in s.get("validity", {}).get("checks", [])}
print(json.dumps({"section": "P2", "pattern": pattern, "target": rate, "achieved": ol["achieved_rate"],
                  "achieved_pct": 100.0 * ol["achieved_rate"] / rate, "missed": ol["missed_arrivals"],
                  "lag_p99_ms": ol["schedule_lag_p99_ms"], "schedule_cv": cv(gaps), "send_cv": cv(sgaps),
                  "errors": s["error_request_count"]["avg"] if "error_request_count" in s else 0,
                  "pool_wait_p99_ms": s["client_health"]["transport"]["pool_wait_p99_ms"],
                  "connects_opened": s["client_health"]["transport"].get("connects_opened"),
                  "connects_waited": s["client_health"]["transport"]["connects"],
                  "client_limited_by": s["client_health"].get("client_limited_by"),
                  "verdict": {k: checks.get(k) for k in ("achieved_rate", "schedule_lag", "pool_wait")}}))
PY
)"
  done
done

# --- P3, P5, P6: against a server with a known cadence that stamps its own sends ---------------------------------
stamps="$out/server-stamps.txt"
curl_c() { curl -sf "http://127.0.0.1:$cadence_port/$1"; }
cadence() { # cadence TTFT_MS ITL_MS TOKENS LOG : (re)starts the timing server and waits until it answers
  [ "${cadence_pid:-}" ] && { kill "$cadence_pid" 2>/dev/null || true; }
  python3 bench/lib/cadence_server.py --port "$cadence_port" --ttft-ms "$1" --itl-ms "$2" --tokens "$3" \
    --stamps "$stamps" > "$out/$4" 2>&1 &
  cadence_pid=$!
  pids+=("$cadence_pid")
  for _ in $(seq 50); do curl_c reset >/dev/null 2>&1 && break; sleep 0.1; done
}
cadence 50 20 20 cadence.log
curl_c reset >/dev/null # no timing server, no P3, P5, P6: stop here
# Warm the server (and prove it answers) before anything is measured.
python3 bench/lib/ref_client.py --port "$cadence_port" --concurrency 4 --requests-per-stream 2 --out "$out/warm.txt"

note "P5: process start to first request"
# Three one-request runs each way, the median kept: `java -jar` (no class-data archive), and bin/aiperf, the
# launcher users run, after one run that recorded its archive (warm start, src-docs/performance.md).
p5_cache="$out/cds-cache"
p5_run() { # p5_run java|launcher : prints "first_ms wall_ms" of one run
  curl_c reset >/dev/null
  local t0 t1 first
  t0=$(date +%s%N)
  if [ "$1" = java ]; then
    java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$out/p5" \
      -u "http://127.0.0.1:$cadence_port" --streaming --concurrency 1 --request-count 1 --isl 16 --osl 20 > "$out/p5.log" 2>&1
  else
    AIPERF_CACHE_DIR="$p5_cache" bin/aiperf profile -m m --tokenizer builtin --ui none --no-server-metrics \
      --artifact-dir "$out/p5" -u "http://127.0.0.1:$cadence_port" --streaming --concurrency 1 --request-count 1 \
      --isl 16 --osl 20 > "$out/p5.log" 2>&1
  fi
  t1=$(date +%s%N)
  first=$(curl_c first)
  echo "$(( (first - t0) / 1000000 )) $(( (t1 - t0) / 1000000 ))"
}
p5_run launcher > /dev/null # records the archive
p5_median() { sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }
p5_java=$(for _ in 1 2 3; do p5_run java; done | p5_median)
p5_launcher=$(for _ in 1 2 3; do p5_run launcher; done | p5_median)
p5_archived=$(ls "$p5_cache"/aiperf-*.jsa 2>/dev/null | grep -vc '\.[0-9]*\.jsa$' || true)
record "{\"section\":\"P5\",\"first_request_ms\":${p5_launcher% *},\"one_request_wall_ms\":${p5_launcher#* },\"java_jar_first_request_ms\":${p5_java% *},\"java_jar_one_request_wall_ms\":${p5_java#* },\"archive_used\":$([ "$p5_archived" -ge 1 ] && echo true || echo false)}"

note "P6: cold-start bias"
curl_c reset >/dev/null
engine "$out/p6" -u "http://127.0.0.1:$cadence_port" --streaming --concurrency 4 --request-count 100 --isl 16 --osl 20
curl_c flush >/dev/null
record "$(python3 bench/lib/fidelity.py --server "$stamps" --engine-jsonl "$out/p6/profile_export.jsonl" --wave 4 \
  | python3 -c "import json,sys; d=json.load(sys.stdin); d['section']='P6'; print(json.dumps(d))")"

for conc in 1 4 64 256; do
  note "P3: $conc streams"
  count=$(( conc * 4 > 40 ? conc * 4 : 40 ))
  curl_c reset >/dev/null
  # Four waves of warmup: P3 is the steady state (P6 above is the cold start).
  engine "$out/p3-$conc" -u "http://127.0.0.1:$cadence_port" --streaming --concurrency "$conc" \
    --warmup-request-count $(( conc * 4 > 100 ? conc * 4 : 100 )) --request-count "$count" --isl 16 --osl 20 || continue
  python3 bench/lib/ref_client.py --port "$cadence_port" --concurrency "$conc" \
    --requests-per-stream $(( count / conc )) --out "$out/p3-ref-$conc.txt"
  curl_c flush >/dev/null
  for who in engine reference; do
    if [ "$who" = engine ]; then src=(--engine-jsonl "$out/p3-$conc/profile_export.jsonl"); else src=(--ref "$out/p3-ref-$conc.txt"); fi
    record "$(python3 bench/lib/fidelity.py --server "$stamps" "${src[@]}" \
      | python3 -c "import json,sys; d=json.load(sys.stdin); d.update(section='P3', client='$who', streams=$conc); print(json.dumps(d))")"
  done
  record "$(summary "$out/p3-$conc" "json.dumps({'section': 'P3T', 'streams': $conc, 'ttft_p50_ms': d['time_to_first_token']['p50'], 'ttft_truth_ms': 50, 'health': d['client_health']})")"
done

# 1,024 streams: a slower cadence (5,000 events/s), which the asyncio server can keep; the engine only (a thread
# per stream in the Python reference client is not a fair peer at this width).
note "P3: 1024 streams"
cadence 200 200 10 cadence1024.log
curl_c reset >/dev/null
if engine "$out/p3-1024" -u "http://127.0.0.1:$cadence_port" --streaming --concurrency 1024 \
    --warmup-request-count 1024 --request-count 3072 --isl 16 --osl 10; then
  curl_c flush >/dev/null
  record "$(python3 bench/lib/fidelity.py --server "$stamps" --engine-jsonl "$out/p3-1024/profile_export.jsonl" \
    | python3 -c "import json,sys; d=json.load(sys.stdin); d.update(section='P3', client='engine', streams=1024); print(json.dumps(d))")"
  record "$(summary "$out/p3-1024" "json.dumps({'section': 'P3T', 'streams': 1024, 'ttft_p50_ms': d['time_to_first_token']['p50'], 'ttft_truth_ms': 200, 'itl_p50_ms': d['inter_token_latency']['p50'], 'itl_p99_ms': d['inter_token_latency']['p99'], 'itl_truth_ms': 200, 'health': d['client_health']})")"
fi

note "P4: 10,000 streams in -Xmx1g"
cadence 1000 1000 5 cadence4.log
/usr/bin/time -f "%U %S %M" -o "$out/p4.time" env JAVA_TOOL_OPTIONS="-Xmx1g -Xlog:gc:file=$out/p4-gc.log" \
  java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$out/p4" \
  -u "http://127.0.0.1:$cadence_port" --streaming --concurrency 10000 --request-count 10000 --isl 16 --osl 5 \
  > "$out/p4.log" 2>&1 || note "P4 run failed: $(tail -3 "$out/p4.log")"
curl_c flush >/dev/null 2>&1 || true
if [ -f "$out/p4/profile_export_aiperf.json" ]; then
  record "$(python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
s = json.load(open(out + "/p4/profile_export_aiperf.json"))
user, sys_, rss = open(out + "/p4.time").read().split()
events = s["request_count"]["avg"] * 5
heap = 0
for line in open(out + "/p4-gc.log"):
    m = re.search(r"->(\d+)M\(", line)
    if m:
        heap = max(heap, int(m.group(1)))
waits, connects = [], []
with open(out + "/p4/profile_export.jsonl") as f:
    for line in f:
        md = json.loads(line).get("client", {})
        waits.append(md.get("pool_wait_ns", 0) / 1e6)
        connects.append(md.get("connect_ns", 0) / 1e6)
waits.sort(); connects.sort()
p99 = lambda v: v[int(0.99 * (len(v) - 1))] if v else None
print(json.dumps({"section": "P4", "streams": 10000, "errors": s.get("error_request_count", {}).get("avg", 0),
                  "requests": s["request_count"]["avg"], "heap_after_gc_max_mb": heap, "rss_max_mb": int(rss) // 1024,
                  "cpu_s_per_1000_events": round((float(user) + float(sys_)) / (events / 1000.0), 4),
                  "pool_wait_p99_ms": p99(waits), "connect_p99_ms": p99(connects),
                  "ttft_p50_ms": s["time_to_first_token"]["p50"], "ttft_p99_ms": s["time_to_first_token"]["p99"],
                  "ttft_truth_ms": 1000}))
PY
)"
  record "$(python3 bench/lib/fidelity.py --server "$stamps" --engine-jsonl "$out/p4/profile_export.jsonl" \
    | python3 -c "import json,sys; d=json.load(sys.stdin); d.update(section='P4F'); print(json.dumps(d))")"
fi

note "J: JMH microbenchmarks"
if java -jar "$jmh" -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff "$out/jmh.json" > "$out/jmh.log" 2>&1; then
  python3 - "$out/jmh.json" >> "$results" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    print(json.dumps({"section": "J", "benchmark": r["benchmark"].rsplit(".", 2)[-2] + "." + r["benchmark"].rsplit(".", 1)[-1],
                      "params": r.get("params") or {}, "ns": round(r["primaryMetric"]["score"], 1),
                      "ns_error": round(r["primaryMetric"]["scoreError"], 1),
                      "alloc_bytes": round(r["secondaryMetrics"]["gc.alloc.rate.norm"]["score"], 1)}))
PY
else
  note "JMH run failed: $(tail -3 "$out/jmh.log")"
fi

# --- the report ----------------------------------------------------------------------------------------------------
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 bench/lib/report.py "$results" "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$(nproc)" "$load_before" "$load_after" \
  "$versions" "$secs" bench/results.json >> bench/history/runs.md
note "done: bench/history/runs.md and bench/results.json ($out holds the runs)"
