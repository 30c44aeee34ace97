# shellcheck shell=bash
# Shared by scripts/e2e.sh and the benchmarks of bench/ (sourced from the repository root): the running ./pmedia stack, its
# .pmedia/local.env, reading a field of a flat JSON answer, and putting a file into the demo vendor's namespace.

# use_stack COMPONENT: runs ./pmedia up unless COMPONENT is up already; STACK_STARTED_HERE=1 when it started it.
use_stack() {
  local status
  STACK_STARTED_HERE=0
  # (status captured first: grep -q closing the pipe early must not make a running stack look down)
  status="$(./pmedia status 2>/dev/null || true)"
  if ! printf '%s\n' "$status" | grep -q "^$1 *up"; then
    ./pmedia up
    STACK_STARTED_HERE=1
  elif [ -n "${PMEDIA_KAFKA_ACLS:-}" ] && [ "$(cat .pmedia/run/kafka-acls 2>/dev/null || echo 0)" != "$PMEDIA_KAFKA_ACLS" ]; then
    # A running stack keeps its Kafka mode; checks asked to run with (or without) ACLs must not pass on the other.
    echo "error: PMEDIA_KAFKA_ACLS=$PMEDIA_KAFKA_ACLS, but the running stack has the other Kafka mode: ./pmedia down first" >&2
    exit 1
  fi
  set -a
  # shellcheck disable=SC1091
  . .pmedia/local.env
  set +a
}

# release_stack: ./pmedia down when use_stack started the stack.
release_stack() {
  if [ "${STACK_STARTED_HERE:-0}" = 1 ]; then ./pmedia down; fi
}

# field JSON NAME: the string value of NAME in a flat JSON answer (empty when absent).
field() { printf '%s' "$1" | tr -d '\n' | sed -n "s/.*\"$2\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p" | head -n 1; }

# demo_token: a bearer token of the demo vendor (POST /auth/token).
demo_token() {
  field "$(curl -s -X POST "$PMEDIA_GATEWAY_URL/auth/token" -H 'Content-Type: application/json' \
    -d "{\"client_id\":\"$PMEDIA_DEMO_CLIENT_ID\",\"client_secret\":\"$PMEDIA_DEMO_CLIENT_SECRET\"}")" access_token
}

# bench_vendor NAME [WEBHOOK_URL]: onboards a vendor of a benchmark's own (POST /admin/clients with the admin token),
# with WEBHOOK_URL as its webhook when given, so that the demo vendor is left as it was; sets BENCH_CLIENT and
# BENCH_TOKEN (a bearer token of it). bench_vendor_remove deletes it.
bench_vendor() {
  local hook="" answer secret
  [ -z "${2:-}" ] || hook=",\"webhook-url\":\"$2\""
  answer="$(curl -s -X POST "$PMEDIA_GATEWAY_URL/admin/clients" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' -d "{\"name\":\"$1\",\"allowed-ips\":[\"127.0.0.1\"]$hook}")"
  BENCH_CLIENT="$(field "$answer" client-id)"
  secret="$(field "$answer" client-secret)"
  [ -n "$BENCH_CLIENT" ] || { echo "POST /admin/clients: $answer" >&2; return 1; }
  BENCH_TOKEN="$(field "$(curl -s -X POST "$PMEDIA_GATEWAY_URL/auth/token" -H 'Content-Type: application/json' \
    -d "{\"client_id\":\"$BENCH_CLIENT\",\"client_secret\":\"$secret\"}")" access_token)"
}

bench_vendor_remove() {
  [ -z "${BENCH_CLIENT:-}" ] || curl -s -o /dev/null -X DELETE "$PMEDIA_GATEWAY_URL/admin/clients/$BENCH_CLIENT" \
    -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" || true
}

# template_of TOKEN USE_CASE_ID: the template-id of the token's vendor's template of that use case (GET /templates;
# the sample templates ./pmedia up registers, such as product-tour); empty when it has none.
template_of() {
  curl -s "$PMEDIA_GATEWAY_URL/templates" -H "Authorization: Bearer $1" | node -e '
let s = ""; process.stdin.on("data", (d) => s += d).on("end", () => {
  const t = JSON.parse(s).find((v) => v["use-case-id"] === process.argv[1]);
  process.stdout.write(t ? t["template-id"] : "");
});' "$2"
}

# stack_upload TOKEN FILE NAME: puts FILE into the token's vendor namespace the way a vendor does (the object store
# takes only signed requests): POST /media/task/uploads, then a plain PUT to the presigned upload-url. Prints the
# file-path (s3://<bucket>/inputs/<client-id>/...); the store's own URL of it is "$PMEDIA_S3_ENDPOINT/${path#s3://}".
stack_upload() {
  local answer path url
  answer="$(curl -s -X POST "$PMEDIA_GATEWAY_URL/media/task/uploads" -H "Authorization: Bearer $1" \
    -H 'Content-Type: application/json' -d "{\"file-name\":\"$3\"}")"
  path="$(field "$answer" file-path)"
  url="$(field "$answer" upload-url)"
  { [ -n "$path" ] && [ -n "$url" ]; } || { echo "POST /media/task/uploads: $answer" >&2; return 1; }
  curl -sf -T "$2" "$url" >/dev/null || { echo "the presigned upload-url does not take $3" >&2; return 1; }
  printf '%s' "$path"
}

# browser_tools: Debian's Chromium and the npm tools of build/node (playwright-core), for a benchmark in a browser.
browser_tools() {
  command -v chromium >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
  [ -d build/node/node_modules/playwright-core ] || npm ci --prefix build/node --no-audit --no-fund >/dev/null
}

# on_view_task TOKEN TEMPLATE CAMPAIGN FILE ROWS OUT: an on-view batch task of the uploaded FILE (ROWS rows) in
# CAMPAIGN, waited for until COMPLETED; its share URLs into OUT, one a line. Prints the task id.
on_view_task() {
  local answer task status
  answer="$(curl -s -X POST "$PMEDIA_GATEWAY_URL/media/task/create" -H "Authorization: Bearer $1" \
    -H 'Content-Type: application/json' -d "{\"campaign-id\":\"$3\",\"template-id\":\"$2\",\"file-path\":\"$4\",
       \"row-count\":$5,\"expected-output-duration\":60,\"render\":\"on-view\"}")"
  task="$(field "$answer" task-id)"
  [ -n "$task" ] || { echo "create failed: $answer" >&2; return 1; }
  while :; do
    status="$(curl -s "$PMEDIA_GATEWAY_URL/media/task/status/$task" -H "Authorization: Bearer $1")"
    case "$(field "$status" status)" in COMPLETED) break ;; FAILED) echo "the task failed: $status" >&2; return 1 ;; esac
    sleep 0.2
  done
  curl -sf "$(field "$status" file-url)" | grep -o 'http[^,]*/v/[A-Za-z0-9_-]*' >"$6"
  printf '%s' "$task"
}

# await_pages TOKEN CAMPAIGN TASK ROWS: waits (at most 2 minutes) until engagement-service lists every page of TASK in
# the campaign's videos.csv. Opening a link to see whether it is there would claim its render.
await_pages() {
  local listed
  for _ in $(seq 1 120); do
    listed="$(curl -s "$PMEDIA_GATEWAY_URL/analytics/campaigns/$2/videos.csv" -H "Authorization: Bearer $1" |
      grep -c "$3" || true)"
    [ "$listed" -ge "$4" ] && return 0
    sleep 1
  done
}
