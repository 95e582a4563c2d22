#!/usr/bin/env bash
# Memory against run length: the engine's live heap after each GC (its high-water mark) and the time from the last
# response to the exports being on disk, for 10k, 100k and 300k streamed requests (OSL 256) against the mock in
# fast mode. Records stream through the record processor, so the high-water mark must stay flat (within 20%).
# Usage: bench/memory.sh [COUNT...]   (default: 10000 100000 300000)
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10000 100000 300000)
port=18556
jar=engine/target/aiperf.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=$(mktemp -d)
java -jar "$jar" mock-server --port $port --fast > "$out/mock.log" 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done

printf '%-9s %-16s %-16s %-14s %s\n' requests live_heap_max_MB heap_before_MB exports_after_s wall_s
first=""
for n in "${counts[@]}"; do
  dir="$out/run-$n"
  start=$SECONDS
  # A fixed, modest heap: growth with the run length would show as a rising live set (or an OutOfMemoryError).
  java -Xmx512m -Xlog:gc:file="$out/gc-$n.log" -jar "$jar" profile -m m --tokenizer builtin \
    -u "http://127.0.0.1:$port" --streaming --concurrency 64 --request-count "$n" --isl 16 --osl 256 --artifact-dir "$dir" --ui-type none >/dev/null 2>"$out/err-$n.log"
  wall=$((SECONDS - start))
  read -r live before < <(python3 - "$out/gc-$n.log" <<'PY'
import re, sys
after_max = before_max = 0.0
unit = {"K": 1 / 1024, "M": 1, "G": 1024}
for line in open(sys.argv[1]):
    m = re.search(r"Pause.* (\d+)([KMG])->(\d+)([KMG])\(", line)
    if m:
        before_max = max(before_max, int(m.group(1)) * unit[m.group(2)])
        after_max = max(after_max, int(m.group(3)) * unit[m.group(4)])
print(f"{after_max:.0f} {before_max:.0f}")
PY
)
  lag=$(python3 - "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
last = 0
with open(os.path.join(d, "profile_export.jsonl")) as f:
    for line in f:
        last = max(last, json.loads(line)["metadata"].get("request_end_ns", 0))
written = os.stat(os.path.join(d, "profile_export_aiperf.json")).st_mtime_ns
print(f"{(written - last) / 1e9:.2f}")
PY
)
  printf '%-9s %-16s %-16s %-14s %s\n' "$n" "$live" "$before" "$lag" "$wall"
  [ -n "$first" ] || first=$live
  last=$live
done
python3 - "$first" "$last" <<'PY'
import sys
first, last = float(sys.argv[1]), float(sys.argv[2])
growth = (last - first) / max(first, 1)
print(f"live heap high-water: {first:.0f} MB at the shortest run, {last:.0f} MB at the longest ({growth:+.0%})")
sys.exit(0 if growth <= 0.20 else 1)
PY
