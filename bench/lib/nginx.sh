# Sourced by bench/run.sh and bench/profile.sh: starts nginx answering every POST with a canned chat completion
# (http on $nginx_port, https on $nginx_tls_port when openssl is there) and defines the engine runner. Needs $out,
# $nginx_port, $nginx_tls_port, $have_openssl, $jar, $pids and note(); sets $url, $out/body.json and $out/post.lua.
completion='{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"},"finish_reason":"length"}],"usage":{"prompt_tokens":16,"completion_tokens":16,"total_tokens":32}}'
mkdir -p "$out/nginx"
tls_server=""
if [ "$have_openssl" = 1 ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$out/nginx/key.pem" -out "$out/nginx/cert.pem" >/dev/null 2>&1
  tls_server="server {
    listen 127.0.0.1:$nginx_tls_port ssl backlog=4096;
    ssl_certificate $out/nginx/cert.pem;
    ssl_certificate_key $out/nginx/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    location / {
      default_type application/json;
      return 200 '$completion';
    }
  }"
fi
cat > "$out/nginx/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$nginx_port backlog=4096;
    location / {
      default_type application/json;
      return 200 '$completion';
    }
  }
  $tls_server
}
NGINX
nginx -c "$out/nginx/nginx.conf" -p "$out/nginx" >/dev/null 2>&1 &
pids+=($!)
url="http://127.0.0.1:$nginx_port"
for _ in $(seq 50); do curl -sf -X POST "$url/v1/chat/completions" -d '{}' >/dev/null && break; sleep 0.1; done
body='{"messages":[{"role":"user","content":"the harbor woke before the town did and the gulls walked along the stones"}],"model":"m","stream":false,"max_completion_tokens":16}'
printf '%s' "$body" > "$out/body.json"
cat > "$out/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
LUA

# A fresh VM's memory costs the host a fault on its first touch: writing 512 MB into page cache never used before
# took 0.71 s of kernel time, into pages used and freed 0.19 s (bench/history/analyses-2026-12.md, part 8). The
# engine writes its
# records file (about 1 KB per request) and the peers write nothing, so on such a machine the first touch was
# billed to the engine alone. Writing and deleting a file before each run hands the records file used pages.
warm_page_cache() { # warm_page_cache [MB] (WARM_MB=0 turns it off)
  local mb=${1:-${WARM_MB:-1024}}
  [ "$mb" -gt 0 ] || return 0
  dd if=/dev/zero of="$out/page-cache-warmer" bs=1M count="$mb" status=none 2>/dev/null || true
  rm -f "$out/page-cache-warmer"
}
engine() { # engine ARTIFACT_DIR ARGS... : runs a profile, quietly
  local dir=$1; shift
  warm_page_cache
  java -jar "$jar" profile -m m --tokenizer builtin --ui none --no-server-metrics --artifact-dir "$dir" "$@" \
    > "$dir.log" 2>&1 || { note "engine run failed, see $dir.log"; tail -5 "$dir.log" >&2; return 1; }
}
summary() { # summary DIR PYTHON_EXPR(d) : a figure from the run's profile_export_aiperf.json
  python3 -c "import json,sys; d=json.load(open('$1/profile_export_aiperf.json')); print($2)"
}
