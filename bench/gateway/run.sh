#!/usr/bin/env bash
# Gateway benchmark: GET /status/{id} (interface 4.5, a database read in media-service) with a bearer token,
# (1) straight to media-service, (2) through the gateway (JWT check, client check, routing), (3) through nginx as a
# plain reverse proxy in front of media-service. Closed-loop load from bench/gateway/Load.java, the same for each, in
# the same run; the figures that matter are the ratios (docs/performance.md).
# Usage: bench/gateway/run.sh [seconds] [connections]     (default 15 s, 16 connections; uses or starts ./pmedia up;
# installs nginx with apt-get when it is missing)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
SECONDS_EACH="${1:-15}"
CONNECTIONS="${2:-16}"
WARMUP="${PMEDIA_BENCH_WARMUP:-25}"   # seconds per target: the JIT (C2) of the JVMs must be done before measuring
NGINX_PORT="${PMEDIA_BENCH_NGINX_PORT:-18090}"

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx (apt-get)" >&2
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-core >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx >/dev/null
  else
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-core >/dev/null
  fi
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack media >/dev/null
# One demo vendor makes all the calls: its API budget (200/s by default, docs/security.md) is raised for the run, so
# the gateway does the whole check on every call and never answers a cheap 429.
PMEDIA_GATEWAY_API_LIMITS_CALLS_BURST=100000000 PMEDIA_GATEWAY_API_LIMITS_CALLS_PER_SECOND=100000000 \
  ./pmedia restart gateway >/dev/null
work="$(mktemp -d)"
cleanup() {
  if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
  rm -rf "$work"
  if [ "${STACK_STARTED_HERE:-0}" = 1 ]; then release_stack >/dev/null; else ./pmedia restart gateway >/dev/null; fi
}
trap cleanup EXIT
GW="$PMEDIA_GATEWAY_URL"

TOKEN="$(demo_token)"
# A request that needs no render (its use case does not exist): its status is a plain database read.
ID="$(field "$(curl -s -X POST "$GW/media/demo" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "{\"client-request-id\":\"bench-$(date +%s%N)\",\"customer-id\":\"c\",\"user-id\":\"u\",\"use-case-id\":\"bench-none\",\"data\":{}}")" service-request-id)"
[ -n "$ID" ] || { echo "no service-request-id" >&2; exit 1; }

cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  upstream media { server 127.0.0.1:8081; keepalive 32; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / {
      proxy_pass http://media;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For \$remote_addr;
    }
  }
}
CONF
"$NGINX" -c "$work/nginx.conf" -p "$work"
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$NGINX_PORT/q/health/live" && break; sleep 0.1; done

load() { java -Xmx256m bench/gateway/Load.java "$1" "$TOKEN" "$SECONDS_EACH" "$CONNECTIONS" 5; }
printf 'gateway benchmark, %s, %s (%s cores), %s connections, %s s each after %s s of warm-up\n' "$(date -u +%F)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" "$CONNECTIONS" "$SECONDS_EACH" "$WARMUP"
printf '%-34s %10s %8s %8s %8s %7s\n' target 'req/s' 'p50 ms' 'p90 ms' 'p99 ms' errors
# Warm-up of every path (JIT of media-service, the gateway and nginx's upstream connections), not measured.
for url in "http://127.0.0.1:8081/status/$ID" "http://127.0.0.1:$NGINX_PORT/status/$ID" "$GW/status/$ID"; do
  java -Xmx256m bench/gateway/Load.java "$url" "$TOKEN" "$WARMUP" "$CONNECTIONS" 1 >/dev/null
done
results=()
for target in "media-service directly|http://127.0.0.1:8081/status/$ID" \
  "nginx -> media-service|http://127.0.0.1:$NGINX_PORT/status/$ID" \
  "gateway -> media-service|$GW/status/$ID"; do
  read -r rps p50 p90 p99 errors < <(load "${target#*|}")
  results+=("$rps")
  printf '%-34s %10s %8s %8s %8s %7s\n' "${target%%|*}" "$rps" "$p50" "$p90" "$p99" "$errors"
done
awk -v d="${results[0]}" -v n="${results[1]}" -v g="${results[2]}" \
  'BEGIN { printf "throughput: nginx/direct %.2f, gateway/direct %.2f, gateway/nginx %.2f\n", n / d, g / d, g / n }'
