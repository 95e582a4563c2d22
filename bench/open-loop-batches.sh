#!/usr/bin/env bash
# The open loop's hand-over in batches measured against the build before it, in the same minutes
# (bench/history/analyses-2026-12.md): P2 at 20,000 req/s, constant and Poisson, against nginx, the two builds
# alternated for
# ROUNDS rounds. Per run: achieved share of the target, missed arrivals, schedule lag p99, pool wait p99, connects
# a request waited for, and the whole process's CPU seconds and voluntary context switches (each a thread that
# slept and was woken: the issuer's parks and the event loop's wake-ups), for the same offered load.
#
# Usage: BEFORE=old.jar bench/open-loop-batches.sh   (AFTER=engine/target/aiperf.jar, ROUNDS=2, RATE=20000;
#                                                     about 2 minutes per round on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
before=${BEFORE:?BEFORE=the jar of the build before}
after=${AFTER:-engine/target/aiperf.jar}
rounds=${ROUNDS:-2}
rate=${RATE:-20000}
out=$(mktemp -d)
nginx_port=18621
nginx_tls_port=18623
have_openssl=0
jar=$after
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
note() { echo "[open-loop-batches] $*" >&2; }
load() { cut -d' ' -f1 /proc/loadavg; }
source bench/lib/nginx.sh
for round in $(seq "$rounds"); do
  for pattern in constant poisson; do
    order="before after"; [ $((round % 2)) = 0 ] && order="after before" # neither build always runs second
    for build in $order; do
      if [ "$build" = before ]; then j=$before; else j=$after; fi
      d="$out/p2-$pattern-$build-$round"
      warm_page_cache
      l0=$(load)
      /usr/bin/time -f "%U %S %w %c" -o "$d.time" java -jar "$j" profile -m m --tokenizer builtin --ui none \
        --no-server-metrics --artifact-dir "$d" -u "$url" --request-rate "$rate" --arrival-pattern "$pattern" \
        --warmup-duration 5 --benchmark-duration 8 --isl 16 --osl 16 > "$d.log" 2>&1 || { note "run failed: $d.log"; continue; }
      python3 - "$d" "$pattern" "$build" "$round" "$rate" "$l0" "$(load)" <<'PY'
import json, sys
d, pattern, build, rnd, rate, l0, l1 = sys.argv[1:]
s = json.load(open(d + "/profile_export_aiperf.json"))
ol = s["client_health"]["open_loop"]["profiling"]
t = s["client_health"]["transport"]
u, sy, vol, inv = open(d + ".time").read().split()[-4:]
n = int(s["request_count"]["avg"])
print(f"P2 round {rnd} {pattern:8s} {build:6s} load {l0}-{l1}: achieved {100 * ol['achieved_rate'] / float(rate):.2f}%, "
      f"missed {ol['missed_arrivals']}, lag p99 {ol['schedule_lag_p99_ms']:.2f} ms, pool wait p99 "
      f"{t['pool_wait_p99_ms']:.2f} ms, connects waited {t['connects']}, CPU {float(u) + float(sy):.1f} s "
      f"(user {u}, sys {sy}), voluntary switches {int(vol):,}, involuntary {int(inv):,}; per request of the profiling "
      f"phase ({n:,}; the warmup's are in the process's figures too): CPU {1e6 * (float(u) + float(sy)) / n:.0f} us, "
      f"voluntary switches {int(vol) / n:.2f}")
PY
    done
  done
done
note "done ($out holds the runs)"
