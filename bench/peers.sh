#!/usr/bin/env bash
# The engine against the tools a user would pick instead, on the same servers, in one run (issue 45):
# upstream AIPerf 0.13.0, GuideLLM 0.8.1 and inference-perf 0.7.0 (each pinned, in its own virtual environment,
# outside the repository), with wrk as the physical-limit anchor (a client that does nothing but HTTP).
#
#   cadence-c1/c64/c256  the timing server (bench/lib/cadence_server.py: 50 ms to the first token, then 20 ms, 20
#                        tokens, every send stamped by the server), streaming, concurrency 1, 64, 256
#   mock-rate            the engine's mock (`aiperf mock-server --fast`), non-streaming, a fixed request rate (each
#                        tool's open-loop mode)
#   mock-max             the same mock, closed loop at concurrency 32 (as fast as the tool goes)
#   llama-c4/c16         llama.cpp's llama-server with the tiny 64x2 model, streaming, concurrency 4 and 16
#
# For each tool and point: requests/s (the tool's own figure), client CPU-seconds per 1,000 requests and peak RSS
# (every process of the tool's tree, from /proc: bench/lib/proctree.py), TTFT and ITL error against the server's
# own stamps (cadence points), the share of requests that failed, and the time from the command to the first
# request (the server's own arrival stamp: cadence server, mock access log) and to the final report (the tool's exit).
# Writes the table to stdout and to $out/table.md, and with PEERS_WRITE=1 (the default) to the top of
# bench/RESULTS.md (its figures to bench/results-peers.json). Every figure is a ratio inside this one run; the machine's load average is in the table.
#
# Usage: bench/peers.sh                       (about 19 minutes on 2 busy cores, load 12-24)
#        PEERS_SCALE=2 bench/peers.sh         (twice the requests per point)
#        PEERS_POINTS="cadence-c64 mock-max"  (a subset)   PEERS_TOOLS="aiperf-java upstream" (a subset)
#        PEERS_DIR=/some/dir                  (where the peers' venvs live; default ~/.cache/aiperf-peers)
#        AIPERF_UPSTREAM_VENV=/dir            (an existing upstream AIPerf 0.13.0 venv to reuse; default
#                                              ~/.cache/aiperf-upstream when it holds 0.13.0, else $PEERS_DIR/aiperf)
# Needs: java 17, python3 >= 3.10 (and >= 3.12 for inference-perf: pyenv's or the system's python3.12), pip
# access to the package index for the first install, wrk (apt-get install wrk, as root, when missing), llama-server
# at $LLAMA_DIR (default ~/.cache/llama-server, see ../shared/tools/llama-server/README.md) or the llama points
# are skipped with the reason. Network only on 127.0.0.1; the peers run with HF_HUB_OFFLINE=1.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
scale=${PEERS_SCALE:-1}
points=${PEERS_POINTS:-"cadence-c1 cadence-c64 cadence-c256 mock-rate mock-max llama-c4 llama-c16"}
tools=${PEERS_TOOLS:-"aiperf-java upstream guidellm inference-perf wrk"}
peers_dir=${PEERS_DIR:-$HOME/.cache/aiperf-peers}
llama_dir=${LLAMA_DIR:-$HOME/.cache/llama-server}
jar=engine/target/aiperf.jar
out=${PEERS_OUT:-$(mktemp -d /tmp/aiperf-peers.XXXXXX)}
mkdir -p "$out" "$peers_dir"
results="$out/results.jsonl"
: > "$results"
cadence_port=18711
mock_port=18712
llama_port=18713
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
note() { echo "[peers] $(date -u +%H:%M:%S) $*" >&2; }
record() { echo "$1" >> "$results"; }
skip() { # skip TOOL POINT REASON
  record "$(python3 -c 'import json,sys; print(json.dumps({"tool": sys.argv[1], "point": sys.argv[2], "skipped": sys.argv[3]}))' "$1" "$2" "$3")"
  note "$1 at $2: skipped ($3)"
}
started=$(date -u +%Y-%m-%dT%H:%MZ)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the peers ------------------------------------------------------------------------------------------------
[ -f "$jar" ] || mvn -B -q -pl engine package -DskipTests -Dmaven.gitcommitid.skip=true
pick_python() { # pick_python MINOR : a python3 >= 3.MINOR
  local c
  for c in python3 python3.13 python3.12 python3.11 python3.10 "$HOME"/.pyenv/versions/3.1[0-9]*/bin/python3; do
    command -v "$c" >/dev/null 2>&1 || [ -x "$c" ] || continue
    "$c" -c "import sys; sys.exit(0 if sys.version_info[:2] >= (3, $1) else 1)" 2>/dev/null && { command -v "$c" || echo "$c"; } && return 0
  done
  return 1
}
install_peer() { # install_peer VENV PACKAGE VERSION MIN_MINOR : prints nothing, fails with the reason on stderr
  local venv=$1 pkg=$2 ver=$3 py
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(0 if m.version('$pkg') == '$ver' else 1)" 2>/dev/null; then
    return 0
  fi
  py=$(pick_python "$4") || { echo "no python3 >= 3.$4 for $pkg $ver" >&2; return 1; }
  note "installing $pkg==$ver into $venv (with $py)"
  rm -rf "$venv"
  "$py" -m venv "$venv" && "$venv/bin/python" -m pip install -q "$pkg==$ver" > "$venv.install.log" 2>&1 \
    || { echo "pip install $pkg==$ver failed: $(grep -E 'ERROR' "$venv.install.log" | head -2 | tr '\n' ' ')" >&2; return 1; }
}
declare -A peer_ok peer_why
upstream_venv=${AIPERF_UPSTREAM_VENV:-}
if [ -z "$upstream_venv" ]; then
  upstream_venv="$HOME/.cache/aiperf-upstream"
  "$upstream_venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(0 if m.version('aiperf') == '0.13.0' else 1)" 2>/dev/null \
    || upstream_venv="$peers_dir/aiperf"
fi
for spec in "upstream:$upstream_venv:aiperf:0.13.0:10" "guidellm:$peers_dir/guidellm:guidellm:0.8.1:10" \
            "inference-perf:$peers_dir/inference-perf:inference-perf:0.7.0:12"; do
  IFS=: read -r name venv pkg ver minor <<< "$spec"
  case " $tools " in *" $name "*) ;; *) continue ;; esac
  if why=$(install_peer "$venv" "$pkg" "$ver" "$minor" 2>&1); then peer_ok[$name]=1; else peer_ok[$name]=0; peer_why[$name]=$why; note "$name: $why"; fi
done
guidellm_bin=$peers_dir/guidellm/bin/guidellm
iperf_bin=$peers_dir/inference-perf/bin/inference-perf
have_wrk=1
command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -q wrk >/dev/null 2>&1; } || true
command -v wrk >/dev/null || { have_wrk=0; note "wrk: not installed (apt-get install wrk)"; }
# The o200k_base tokenizer for every peer, from the engine's jar (bench/lib/peer_tokenizer.py), so all count alike
tok_cache="" ; hf_tok=""
if [ "${peer_ok[upstream]:-0}" = 1 ]; then
  { read -r tok_cache; read -r hf_tok; } < <("$upstream_venv/bin/python" bench/lib/peer_tokenizer.py "$jar" "$peers_dir/assets" 2>"$out/tokenizer.log")
fi
[ -n "$hf_tok" ] || { for n in guidellm inference-perf; do [ "${peer_ok[$n]:-0}" = 1 ] && { peer_ok[$n]=0; peer_why[$n]="no tokenizer (needs upstream AIPerf's tiktoken and transformers: $(tail -1 "$out/tokenizer.log" 2>/dev/null))"; }; done; }
versions="$(java -version 2>&1 | head -1 | tr -d '"'), upstream aiperf $("$upstream_venv/bin/python" -c "import importlib.metadata as m; print(m.version('aiperf'))" 2>/dev/null || echo -),"
versions="$versions guidellm $("$peers_dir/guidellm/bin/python" -c "import importlib.metadata as m; print(m.version('guidellm'))" 2>/dev/null || echo -),"
versions="$versions inference-perf $("$peers_dir/inference-perf/bin/python" -c "import importlib.metadata as m; print(m.version('inference-perf'))" 2>/dev/null || echo -),"
versions="$versions wrk $(dpkg-query -W -f='${Version}' wrk 2>/dev/null || echo -)"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 TIKTOKEN_CACHE_DIR="$tok_cache" NO_PROXY=127.0.0.1,localhost

# --- servers ----------------------------------------------------------------------------------------------------
stamps="$out/server-stamps.txt"
curl_c() { curl -sf "http://127.0.0.1:$cadence_port/$1"; }
python3 bench/lib/cadence_server.py --port "$cadence_port" --ttft-ms 50 --itl-ms 20 --tokens 20 --stamps "$stamps" \
  > "$out/cadence.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl_c reset >/dev/null 2>&1 && break; sleep 0.1; done
mock_log="$out/mock-access.log"
java -jar "$jar" mock-server -p "$mock_port" --fast --access-log "$mock_log" > "$out/mock.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$mock_port/v1/models" >/dev/null 2>&1 && break; sleep 0.1; done
llama_bin=$llama_dir/llama.cpp/build/bin/llama-server
llama_model=$llama_dir/models/tiny-random-llama-64x2.gguf
have_llama=0
llama_restarts=0
start_llama() {
  "$llama_bin" -m "$llama_model" --host 127.0.0.1 --port "$llama_port" -c 8192 -np 16 -t 1 --no-webui \
    >> "$out/llama.log" 2>&1 &
  llama_pid=$!
  pids+=("$llama_pid")
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$llama_port/health" >/dev/null 2>&1 && { have_llama=1; return 0; }; sleep 0.2; done
  return 1
}
ensure_llama() { # llama-server answers, or is started again (on a shared machine, another process may end it)
  curl -sf "http://127.0.0.1:$llama_port/health" >/dev/null 2>&1 && return 0
  note "llama-server had exited (see $out/llama.log); starting it again"
  llama_restarts=$((llama_restarts + 1))
  kill "$llama_pid" 2>/dev/null || true
  start_llama
}
if [ -x "$llama_bin" ] && [ -f "$llama_model" ]; then
  start_llama || true
fi
llama_why="llama-server not found at $llama_bin with $llama_model (../shared/tools/llama-server/README.md)"
# warm every server once (and prove it answers) before anything is measured
python3 bench/lib/ref_client.py --port "$cadence_port" --concurrency 4 --requests-per-stream 2 --out "$out/warm.txt"
curl -sf -X POST "http://127.0.0.1:$mock_port/v1/chat/completions" -H 'Content-Type: application/json' \
  -d '{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":16}' >/dev/null
[ "$have_llama" = 1 ] && curl -sf -X POST "http://127.0.0.1:$llama_port/v1/chat/completions" -H 'Content-Type: application/json' \
  -d '{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":4}' >/dev/null
# A warm machine for the engine too, as the peers' byte-compiled modules are: bin/aiperf's first run of a new build
# lists its classes and the second builds its class-data archive (src-docs/performance.md, warm start), so neither
# may be a measured run. Two short runs against the mock; with the archive already there they only cost seconds.
if [[ " $tools " == *" aiperf-java "* ]]; then
  for _ in 1 2; do
    bin/aiperf profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$out/launcher-warm" \
      -u "http://127.0.0.1:$mock_port" --endpoint-type chat --streaming --request-count 4 --concurrency 2 >/dev/null
  done
  rm -rf "$out/launcher-warm"
fi

# --- the points -------------------------------------------------------------------------------------------------
# point -> server URL, streaming, concurrency or rate, request count, output tokens
declare -A P_URL P_STREAM P_CONC P_RATE P_COUNT P_OSL
c=http://127.0.0.1:$cadence_port; m=http://127.0.0.1:$mock_port; l=http://127.0.0.1:$llama_port
def() { P_URL[$1]=$2; P_STREAM[$1]=$3; P_CONC[$1]=$4; P_RATE[$1]=$5; P_COUNT[$1]=$(( $6 * scale )); P_OSL[$1]=$7; }
#    point         url stream conc rate count osl
def cadence-c1     "$c" 1    1    0    10    20
def cadence-c64    "$c" 1    64   0    256   20
def cadence-c256   "$c" 1    256  0    768   20
def mock-rate      "$m" 0    0    200  1000  16
def mock-max       "$m" 0    32   0    6000  16
def llama-c4       "$l" 1    4    0    96    16
def llama-c16      "$l" 1    16   0    192   16

run_tree() { # run_tree DIR CMD... : runs a tool under bench/lib/proctree.py, its output in DIR.log
  local dir=$1; shift
  python3 bench/lib/proctree.py --out "$dir.proc.json" --timeout 600 -- "$@" > "$dir.log" 2>&1 || true
}
first_request_ns() { # first_request_ns POINT : the server's own stamp of the first request, or 0
  case $1 in
    cadence-*) curl_c first 2>/dev/null || echo 0 ;;
    mock-*) python3 - "$mock_log" <<'PY' 2>/dev/null || echo 0
import sys, datetime
line = open(sys.argv[1]).readline().split()
if not line:
    print(0)
else:
    s = line[0].rstrip("Z")
    whole, frac = (s.split(".") + ["0"])[:2]
    t = datetime.datetime.fromisoformat(whole).replace(tzinfo=datetime.timezone.utc)
    print(int(t.timestamp()) * 10**9 + int(frac.ljust(9, "0")[:9]))
PY
    ;;
    *) echo 0 ;;
  esac
}
reset_server() { # reset_server POINT
  case $1 in
    cadence-*) curl_c reset >/dev/null ;;
    mock-*) : > "$mock_log" ;;
  esac
}

run_point_tool() { # run_point_tool POINT TOOL
  local p=$1 t=$2 dir="$out/$1/$2" url=${P_URL[$1]} stream=${P_STREAM[$1]} conc=${P_CONC[$1]} rate=${P_RATE[$1]}
  local count=${P_COUNT[$1]} osl=${P_OSL[$1]} model=m stream_json=false
  [ "$stream" = 1 ] && stream_json=true
  mkdir -p "$out/$p"
  case $p in llama-*)
    [ "$have_llama" = 1 ] || { skip "$t" "$p" "$llama_why"; return; }
    ensure_llama || { skip "$t" "$p" "llama-server exited and did not start again"; return; }
    model=tiny-random-llama-64x2 ;;
  esac
  if [ "$t" != aiperf-java ] && [ "$t" != wrk ] && [ "${peer_ok[$t]:-0}" != 1 ]; then skip "$t" "$p" "${peer_why[$t]:-not installed}"; return; fi
  reset_server "$p"
  note "$t at $p (load $(cut -d' ' -f1 /proc/loadavg))"
  local load1; load1=$(cut -d' ' -f1 /proc/loadavg)
  case $t in
    aiperf-java)
      local a=(profile -m "$model" --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$dir" -u "$url"
               --endpoint-type chat --request-count "$count" --isl 16 --osl "$osl")
      [ "$stream" = 1 ] && a+=(--streaming)
      if [ "$rate" != 0 ]; then a+=(--request-rate "$rate"); else a+=(--concurrency "$conc"); fi
      case $p in llama-*) a+=(--extra-inputs ignore_eos:true) ;; esac
      run_tree "$dir" bin/aiperf "${a[@]}" ;;
    upstream)
      local a=(profile -m "$model" --tokenizer builtin --ui-type none --artifact-dir "$dir" -u "$url"
               --endpoint-type chat --request-count "$count" --isl 16 --osl "$osl")
      [ "$stream" = 1 ] && a+=(--streaming)
      if [ "$rate" != 0 ]; then a+=(--request-rate "$rate"); else a+=(--concurrency "$conc"); fi
      case $p in llama-*) a+=(--extra-inputs ignore_eos:true) ;; esac
      run_tree "$dir" "$upstream_venv/bin/aiperf" "${a[@]}" ;;
    guidellm)
      local profile
      if [ "$rate" != 0 ]; then profile="{\"kind\": \"constant\", \"rate\": [$rate]}"; else profile="{\"kind\": \"concurrent\", \"streams\": [$conc]}"; fi
      cat > "$dir.scenario.json" <<JSON
{"spec": {
  "backend": {"kind": "openai_http", "target": "$url", "model": "$model", "request_format": "/v1/chat/completions",
              "stream": $stream_json},
  "profile": $profile,
  "constraints": [{"kind": "max_requests", "count": $count}],
  "tokenizer": {"kind": "huggingface_auto", "model": "$hf_tok"},
  "data": [{"kind": "synthetic_text", "prompt_tokens": 16, "output_tokens": $osl}],
  "outputs": [{"kind": "json", "path": "$dir/benchmarks.json"}]
}}
JSON
      run_tree "$dir" "$guidellm_bin" run --scenario "$dir.scenario.json" --disable-console-interactive ;;
    inference-perf)
      # Its random data speaks only the completions API (chat needs a dataset or shared prefixes): /v1/completions,
      # which every server here serves with the same cadence.
      local load
      if [ "$rate" != 0 ]; then
        load="type: constant
  stages:
    - {rate: $rate, duration: $(( (count + rate - 1) / rate ))}"
      else
        load="type: concurrent
  stages:
    - {num_requests: $count, concurrency_level: $conc}"
      fi
      cat > "$dir.config.yml" <<YAML
api:
  type: completion
  streaming: $stream_json
data:
  type: random
  input_distribution: {min: 16, max: 16, mean: 16, std_dev: 0, total_count: $count, type: fixed}
  output_distribution: {min: $osl, max: $osl, mean: $osl, std_dev: 0, total_count: $count, type: fixed}
load:
  $load
server:
  type: vllm
  model_name: $model
  base_url: $url
  ignore_eos: true
tokenizer:
  pretrained_model_name_or_path: $hf_tok
report:
  request_lifecycle: {summary: true, per_stage: false, per_request: false}
storage:
  local_storage: {path: $dir}
YAML
      run_tree "$dir" "$iperf_bin" --config_file "$dir.config.yml" ;;
    wrk)
      [ "$have_wrk" = 1 ] || { skip wrk "$p" "wrk is not installed"; return; }
      [ "$rate" = 0 ] || { skip wrk "$p" "wrk has no open-loop mode (a fixed rate needs wrk2)"; return; }
      local body path=/v1/chat/completions sflag=""
      [ "$stream" = 1 ] && sflag=',"stream":true'
      body="{\"model\":\"$model\",\"messages\":[{\"role\":\"user\",\"content\":\"the harbor woke before the town did and the gulls walked\"}],\"max_tokens\":$osl,\"ignore_eos\":true$sflag}"
      printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' "'$body'" > "$dir.lua"
      # about as long as the engine's run of the same point took, at least 3 s
      local secs
      secs=$(python3 -c "import json; d=json.load(open('$out/$p/aiperf-java.proc.json')); print(max(3, round(d['wall_s'])))" 2>/dev/null || echo 5)
      run_tree "$dir" wrk -t1 -c"$conc" -d"${secs}s" --latency -s "$dir.lua" "$url$path" ;;
  esac
  local first; first=$(first_request_ns "$p")
  local extra=""
  case $p in cadence-*) curl_c flush >/dev/null; cp "$stamps" "$dir.stamps" ;; esac
  record "$(python3 -c 'import json,sys; print(json.dumps({"tool": sys.argv[1], "point": sys.argv[2], "dir": sys.argv[3], "first_request_ns": int(sys.argv[4]), "load1": float(sys.argv[5]), "count": int(sys.argv[6]), "conc": int(sys.argv[7]), "rate": float(sys.argv[8]), "stream": sys.argv[9] == "1"}))' \
    "$t" "$p" "$dir" "$first" "$load1" "$count" "$conc" "$rate" "$stream")"
}

for p in $points; do
  for t in $tools; do
    run_point_tool "$p" "$t"
  done
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
[ "$llama_restarts" = 0 ] || versions="$versions; llama-server exited during the run and was started again $llama_restarts time(s)"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 bench/lib/peers_report.py "$results" --started "$started" --commit "$commit" --cores "$(nproc)" \
  --load-before "$load_before" --load-after "$load_after" --versions "$versions" --scale "$scale" \
  --json "$out/table.json" > "$out/table.md"
cat "$out/table.md"
if [ "${PEERS_WRITE:-1}" = 1 ]; then
  python3 bench/lib/peers_report.py --insert "$out/table.md" bench/RESULTS.md
  cp "$out/table.json" bench/results-peers.json
  note "the table is at the top of bench/RESULTS.md, its figures in bench/results-peers.json ($out holds the runs)"
fi
