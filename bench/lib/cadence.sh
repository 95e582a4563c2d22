# Sourced by the P3 scripts (profile-streams.sh, profile-wakeups.sh, reading-thread.sh): starts the cadence server
# with P3's settings (50 ms to the first token, then 20 ms, 20 tokens) on $1, waits until it answers, and warms the
# reference client against it. Needs $out and $pids; sets $stamps (the server's send stamps) and curl_c().
start_cadence() { # start_cadence PORT
  cadence_port=$1
  stamps="$out/server-stamps.txt"
  curl_c() { curl -sf "http://127.0.0.1:$cadence_port/$1"; }
  python3 bench/lib/cadence_server.py --port "$cadence_port" --ttft-ms 50 --itl-ms 20 --tokens 20 \
    --stamps "$stamps" > "$out/cadence.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do curl_c reset >/dev/null 2>&1 && break; sleep 0.1; done
  python3 bench/lib/ref_client.py --port "$cadence_port" --concurrency 4 --requests-per-stream 2 --out "$out/warm.txt"
}
