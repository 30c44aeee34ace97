#!/usr/bin/env bash
# End-to-end smoke test through the gateway only, as a vendor would: the README walk-through, checked.
# Starts the stack with ./pmedia up (unless it runs already) and stops what it started. ./pmedia test runs it with
# PMEDIA_KAFKA_ACLS=1: every service then talks to Kafka as its KafkaUser of deploy/k8s (docs/local-stack.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

pass() { printf '\033[1;32m  ok\033[0m %s\n' "$*"; }
fail() {
  printf '\033[1;31mFAIL\033[0m %s\n' "$*" >&2
  exit 1
}
# logs_of NAME...: the last lines of those services' logs, for a failure that waited on them (CI keeps no .pmedia/).
logs_of() {
  local name
  for name in "$@"; do
    printf '%s\n' "--- the last lines of .pmedia/logs/$name.log" >&2
    tail -n 40 ".pmedia/logs/$name.log" >&2 2>/dev/null || true
  done
}

# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
# A stack started here traces (Zipkin): system-tests' TraceTest reads one request's trace from it.
export PMEDIA_TRACING="${PMEDIA_TRACING:-1}"
use_stack gateway
receiver_pid=""
webhook_set=0
sampler_pid=""
cleanup() {
  if [ -n "$sampler_pid" ]; then kill "$sampler_pid" 2>/dev/null || true; fi
  if [ "$webhook_set" = 1 ]; then # the demo vendor has no webhook-url outside this check
    curl -s -o /dev/null -X PATCH "$GW/admin/clients/$PMEDIA_DEMO_CLIENT_ID" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
      -H 'Content-Type: application/json' -d '{"webhook-url":null}' || true
  fi
  if [ -n "$receiver_pid" ]; then kill "$receiver_pid" 2>/dev/null || true; fi
  if [ -n "${work:-}" ]; then rm -rf "$work"; fi
  release_stack
}
trap cleanup EXIT
work="$(mktemp -d)"
# Every service JVM's memory outside its heap is sampled from here to the end of the system tests (checked there).
bash scripts/memory-check.sh sample "$work/memory" &
sampler_pid=$!

GW="$PMEDIA_GATEWAY_URL"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# --- authentication (4.1, 4.2) -----------------------------------------------------------------------------------
answer="$(curl -s -X POST "$GW/auth/token" -H 'Content-Type: application/json' \
  -d "{\"client_id\":\"$PMEDIA_DEMO_CLIENT_ID\",\"client_secret\":\"$PMEDIA_DEMO_CLIENT_SECRET\"}")"
TOKEN="$(field "$answer" access_token)"
[ -n "$TOKEN" ] || fail "POST /auth/token gave no token: $answer"
printf '%s' "$answer" | grep -q '"expires_in":3600' || fail "expires_in is not 3600: $answer"
pass "POST /auth/token"
answer="$(curl -s "$GW/getToken?clientId=$PMEDIA_DEMO_CLIENT_ID&clientSecret=$PMEDIA_DEMO_CLIENT_SECRET")"
printf '%s' "$answer" | grep -q '"expires_in":86400' || fail "GET /getToken: $answer"
pass "GET /getToken from an allowed address"
[ "$(code -X POST "$GW/auth/token" -H 'Content-Type: application/json' \
  -d "{\"client_id\":\"$PMEDIA_DEMO_CLIENT_ID\",\"client_secret\":\"wrong\"}")" = 401 ] || fail "wrong secret is not 401"
pass "wrong secret is 401"
# (Outputs are captured before grep: with pipefail, grep -q closing the pipe early can fail a longer writer.)
jwks="$(curl -sk "$PMEDIA_GATEWAY_HTTPS_URL/.well-known/jwks.json")"
printf '%s' "$jwks" | grep -q '"kty":"RSA"' || fail "no JWKS over HTTPS"
pass "HTTPS and JWKS"
body="$(curl -s "$GW/no/such/path")"
printf '%s' "$body" | grep -q '"code":"NOT_FOUND"' || fail "unknown path body: $body"
pass "error body on an unknown path"

# --- realtime media (4.3-4.5) ---------------------------------------------------------------------------------
if [ -n "${PMEDIA_DEMO_USE_CASE_ID:-}" ]; then
  templates="$(curl -s "$GW/templates" -H "Authorization: Bearer $TOKEN")"
  printf '%s' "$templates" | grep -q "\"$PMEDIA_DEMO_USE_CASE_ID\"" ||
    fail "GET /templates does not list $PMEDIA_DEMO_USE_CASE_ID"
  pass "GET /templates"
  # A local endpoint that verifies Standard Webhooks signatures on its own, registered as the vendor's webhook-url.
  java scripts/WebhookReceiver.java 0 "$PMEDIA_DEMO_WEBHOOK_SECRET" >"$work/pushes.log" 2>&1 &
  receiver_pid=$!
  deadline=$((SECONDS + 60))
  until port="$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$work/pushes.log")" && [ -n "$port" ]; do
    kill -0 "$receiver_pid" 2>/dev/null || fail "the webhook receiver did not start: $(cat "$work/pushes.log")"
    [ "$SECONDS" -lt "$deadline" ] || fail "the webhook receiver did not start in 60 s"
    sleep 0.2
  done
  answer="$(curl -s -X PATCH "$GW/admin/clients/$PMEDIA_DEMO_CLIENT_ID" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' -d "{\"webhook-url\":\"http://127.0.0.1:$port/video-push\"}")"
  webhook_set=1
  printf '%s' "$answer" | grep -q "127.0.0.1:$port" || fail "PATCH /admin/clients/{id} webhook-url: $answer"
  pass "webhook-url registered for the demo vendor"
  request_id="e2e-$(date +%s%N)"
  request="{\"client-request-id\":\"$request_id\",\"customer-id\":\"c-1\",\"user-id\":\"u-1\",
    \"use-case-id\":\"$PMEDIA_DEMO_USE_CASE_ID\",
    \"data\":{\"personalization_fields\":{\"name\":\"O'Brien: 100% [x];drawbox\"}}}"
  answer="$(curl -s -X POST "$GW/media/demo" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "$request")"
  ID="$(field "$answer" service-request-id)"
  { [ "$(field "$answer" status)" = SUCCESS ] && [ -n "$ID" ]; } || fail "POST /media/demo: $answer"
  again="$(curl -s -X POST "$GW/media/demo" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "$request")"
  [ "$(field "$again" service-request-id)" = "$ID" ] || fail "the same request twice got another id: $again"
  pass "POST /media/demo (and idempotent)"
  deadline=$((SECONDS + 180))
  while :; do
    status="$(curl -s "$GW/status/$ID" -H "x-api-key: $PMEDIA_DEMO_API_KEY")"
    case "$(field "$status" status)" in
      SUCCESS) break ;;
      PROCESSING) ;;
      *) fail "GET /status: $status" ;;
    esac
    [ "$SECONDS" -lt "$deadline" ] || { logs_of media media-worker-1; fail "the video was not ready in 180 s: $status"; }
    sleep 1
  done
  pass "GET /status reached SUCCESS (API key alone)"
  curl -sf -o "$work/video.mp4" "$(field "$status" video-url)" || fail "video-url does not download"
  curl -sf -o "$work/thumb.jpg" "$(field "$status" image-url)" || fail "image-url does not download"
  probe="$(ffprobe -v error -show_entries format=duration:stream=codec_type,width,height -of csv=p=0 "$work/video.mp4")"
  printf '%s\n' "$probe" | grep -q '^video,1280,720' || fail "not a 1280x720 video: $probe"
  printf '%s\n' "$probe" | grep -q '^audio' || fail "no audio stream: $probe"
  duration="$(printf '%s\n' "$probe" | tail -n 1)"
  awk -v d="$duration" 'BEGIN { exit !(d > 9.9 && d < 10.1) }' || fail "duration $duration is not 10 s"
  pass "the video plays: 1280x720, 10 s, video and audio"
  deadline=$((SECONDS + 60))
  until push="$(grep -F "\"client-request-id\":\"$request_id\"" "$work/pushes.log")"; do
    [ "$SECONDS" -lt "$deadline" ] || fail "no video push in 60 s; the receiver saw: $(cat "$work/pushes.log")"
    sleep 0.5
  done
  case "$push" in verified*) ;; *) fail "the video push does not verify: $push" ;; esac
  printf '%s' "$push" | grep -qF '"user-id":"u-1"' || fail "the push has no user-id: $push"
  printf '%s' "$push" | grep -q '"video-url":"http' || fail "the push has no video-url: $push"
  pass "the signed video push reached the webhook-url and verifies"
else
  printf '  skipped realtime media: no demo template registered\n'
fi

# --- batch tasks (4.6-4.8) ------------------------------------------------------------------------------------
# upload FILE NAME: puts FILE into the demo vendor's namespace (POST /media/task/uploads); prints its file-path.
upload() { stack_upload "$TOKEN" "$1" "$2" || fail "uploading $2"; }
[ "$(code "$PMEDIA_S3_ENDPOINT/$PMEDIA_S3_BUCKET?list-type=2")" = 403 ] || fail "the object store lists anonymously"
[ "$(code -X PUT --data x "$PMEDIA_S3_ENDPOINT/$PMEDIA_S3_BUCKET/inputs/anonymous.txt")" = 403 ] ||
  fail "the object store takes anonymous uploads"
pass "the object store refuses anonymous list and put"
if [ -n "${PMEDIA_DEMO_TEMPLATE_ID:-}" ]; then
  printf 'user-id,name,offer\nu-1,Ada,20%% off\nu-2,"Grace, again",\n' >"$work/input.csv"
  input="$(upload "$work/input.csv" customers.csv)"
  pass "POST /media/task/uploads and a plain PUT to the upload URL"
  # Another vendor naming the demo vendor's file is answered exactly like a missing file.
  other="$(curl -s -X POST "$GW/admin/clients" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' -d '{"name":"e2e other vendor"}')"
  other_id="$(field "$other" client-id)"
  other_token="$(field "$(curl -s -X POST "$GW/auth/token" -H 'Content-Type: application/json' \
    -d "{\"client_id\":\"$other_id\",\"client_secret\":\"$(field "$other" client-secret)\"}")" access_token)"
  [ -n "$other_token" ] || fail "a second vendor could not be onboarded: $other"
  answer="$(curl -s -w '\n%{http_code}' -X POST "$GW/media/task/create" -H "Authorization: Bearer $other_token" \
    -H 'Content-Type: application/json' -d "{\"client-id\":\"$other_id\",\"campaign-id\":\"e2e\",
      \"template-id\":\"$PMEDIA_DEMO_TEMPLATE_ID\",\"file-name\":\"input.csv\",\"file-path\":\"$input\",\"priority\":1,
      \"row-count\":2,\"expected-output-duration\":1}")"
  [ "${answer##*$'\n'}" = 404 ] && printf '%s' "$answer" | grep -qF "\"message\":\"file not found: $input\"" ||
    fail "another vendor's task on the demo vendor's file: $answer"
  curl -s -o /dev/null -X DELETE "$GW/admin/clients/$other_id" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" || true
  pass "another vendor naming the demo vendor's file gets 404 file not found"
  answer="$(curl -s -X POST "$GW/media/task/create" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"client-id\":\"$PMEDIA_DEMO_CLIENT_ID\",\"campaign-id\":\"e2e\",\"template-id\":\"$PMEDIA_DEMO_TEMPLATE_ID\",
      \"file-name\":\"input.csv\",\"file-path\":\"$input\",\"priority\":1,\"row-count\":2,
      \"expected-output-duration\":1}")"
  TASK="$(field "$answer" task-id)"
  [ -n "$TASK" ] || fail "POST /media/task/create: $answer"
  pass "POST /media/task/create"
  deadline=$((SECONDS + 180))
  while :; do
    status="$(curl -s "$GW/media/task/status/$TASK" -H "Authorization: Bearer $TOKEN")"
    case "$(field "$status" status)" in
      COMPLETED) break ;;
      PENDING | "IN PROGRESS") ;;
      *) fail "GET /media/task/status: $status" ;;
    esac
    [ "$SECONDS" -lt "$deadline" ] || { logs_of batch media media-worker-1; fail "the batch task did not complete in 180 s: $status"; }
    sleep 1
  done
  printf '%s' "$status" | grep -q '"processed":2' || fail "the batch task did not process 2 rows: $status"
  case "$(field "$status" file-path)" in "s3://$PMEDIA_S3_BUCKET/batch/$PMEDIA_DEMO_CLIENT_ID/$TASK/"*) ;;
    *) fail "file-path is not in the vendor's batch namespace: $status" ;; esac
  pass "GET /media/task/status reached COMPLETED"
  curl -sf -o "$work/output.csv" "$(field "$status" file-url)" || fail "the output file does not download from file-url"
  [ "$(grep -c ',SUCCESS,' "$work/output.csv")" = 2 ] || fail "the output file: $(cat "$work/output.csv")"
  video="$(sed -n '2p' "$work/output.csv" | cut -d, -f5)"
  curl -sf -o "$work/batch.mp4" "$video" || fail "a batch video does not download: $video"
  streams="$(ffprobe -v error -show_entries stream=codec_type -of csv=p=0 "$work/batch.mp4" || true)"
  printf '%s\n' "$streams" | grep -q '^video' ||
    fail "a batch video does not play"
  pass "the output file lists both rows and their videos play"
fi

# --- virtual try-on (4.9, 4.10) -------------------------------------------------------------------------------
ffmpeg -v error -y -f lavfi -i "color=c=0x1e3cc8:s=400x800" -frames:v 1 "$work/model.png"
ffmpeg -v error -y -f lavfi -i "color=c=white:s=200x160,drawbox=x=20:y=10:w=160:h=140:color=0xdc1414:t=fill" \
  -frames:v 1 "$work/shirt.png"
# The images go into the vendor's own namespace; the store's URL of its own object is an image URL it may use.
model="$(upload "$work/model.png" model.png)"
shirt="$(upload "$work/shirt.png" shirt.png)"
answer="$(curl -s -X POST "$GW/vton/request" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "{\"user-id\":\"u-1\",\"client-id\":\"$PMEDIA_DEMO_CLIENT_ID\",\"usecase-id\":\"e2e\",
    \"model-image\":\"$PMEDIA_S3_ENDPOINT/${model#s3://}\",\"garment-image\":[\"$PMEDIA_S3_ENDPOINT/${shirt#s3://}\"],
    \"category\":\"tops\"}")"
TRYON="$(field "$answer" request-id)"
[ -n "$TRYON" ] || fail "POST /vton/request: $answer"
deadline=$((SECONDS + 120))
while :; do
  status="$(curl -s "$GW/vton/status/$TRYON" -H "Authorization: Bearer $TOKEN")"
  case "$(field "$status" status)" in
    SUCCESS) break ;;
    PROCESSING) ;;
    *) fail "GET /vton/status: $status" ;;
  esac
  [ "$SECONDS" -lt "$deadline" ] || fail "the try-on was not ready in 120 s: $status"
  sleep 1
done
curl -sf -o "$work/tryon.png" "$(field "$status" generated-output)" || fail "generated-output does not download"
size="$(ffprobe -v error -show_entries stream=width,height -of csv=p=0 "$work/tryon.png" || true)"
printf '%s\n' "$size" | grep -q '^400,800' ||
  fail "generated-output is not the model's 400x800 image"
pass "POST /vton/request, GET /vton/status reached SUCCESS, the image downloads"

# --- campaigns (4.11) -----------------------------------------------------------------------------------------
start="$(date -u -d '+1 hour' +%FT%TZ)"
end="$(date -u -d '+2 hours' +%FT%TZ)"
answer="$(curl -s -X POST "$GW/campaigns/e2e-$(date +%s)/schedule" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "{\"start_time\":\"$start\",\"end_time\":\"$end\"}")"
[ "$(field "$answer" status)" = SCHEDULED ] || fail "POST /campaigns/{id}/schedule: $answer"
pass "POST /campaigns/{id}/schedule"

# --- the SDKs' examples as a vendor runs them (sdk/java/examples, sdk/typescript/examples; docs/sdks.md) ----------
# (The Java SDK and its examples build with -am; the TypeScript package was built and packed by ./mvnw verify.)
if ! ./mvnw -B -q -pl sdk/java/examples -am -Pstack verify -Dtest='io/pmedia/examples/*Test' -Dformatter.skip -Dimpsort.skip \
  -Dsurefire.failIfNoSpecifiedTests=false >"$work/sdk-java.log" 2>&1; then
  grep -E 'Tests run|FAIL|expected|but was|Expecting' "$work/sdk-java.log" | head -n 40 >&2 || true
  cp "$work/sdk-java.log" "$ROOT/.pmedia/logs/sdk-java.log" 2>/dev/null || true
  fail "the Java SDK's examples (log: .pmedia/logs/sdk-java.log, reports: sdk/java/examples/target/surefire-reports)"
fi
pass "the Java SDK's examples: token, a video that plays, its push verified, a batch of three, a 429 retried, typed errors"
[ -f sdk/typescript/target/pmedia-client-1.0.0.tgz ] ||
  ./mvnw -B -q -pl sdk/typescript package -DskipTests >"$work/sdk-ts-build.log" 2>&1 || fail "building @pmedia/client"
if ! (cd sdk/typescript/examples && npm ci --no-audit --no-fund && npm test) >"$work/sdk-ts.log" 2>&1; then
  grep -E '^not ok|# (pass|fail)|Error|expected|actual' "$work/sdk-ts.log" | head -n 40 >&2 || true
  cp "$work/sdk-ts.log" "$ROOT/.pmedia/logs/sdk-typescript.log" 2>/dev/null || true
  fail "the TypeScript SDK's examples (log: .pmedia/logs/sdk-typescript.log)"
fi
pass "the TypeScript SDK's examples: $(grep -E '^# pass' "$work/sdk-ts.log" | cut -d' ' -f3) tests, the packed tarball loads as ESM and CJS"

# --- the SDKs as a vendor installs them: ./pmedia sdk's artifacts in fresh projects outside the repository -----------
# (scripts/sdk-install-test.sh: npm install of the tarball, strict types under nodenext, node10 and bundler; the Java
# jar and its standalone POM in a fresh Maven project; each program renders a video and catches a NOT_FOUND.)
if ! ./pmedia sdk "$work/sdk" >"$work/sdk-artifacts.log" 2>&1; then
  tail -n 20 "$work/sdk-artifacts.log" >&2
  fail "./pmedia sdk"
fi
if ! PMEDIA_GATEWAY_URL="$GW" scripts/sdk-install-test.sh "$work/sdk" >"$work/sdk-install.log" 2>&1; then
  cat "$work/sdk-install.log" >&2
  fail "the SDKs installed from ./pmedia sdk's artifacts"
fi
while IFS= read -r line; do
  case "$line" in "  ok "*) pass "${line#  ok }" ;; esac
done <"$work/sdk-install.log"

# --- the whole system as an outside reviewer tries it: system-tests/ (JUnit, through the gateway only) ---------------
# (-am: the modules it depends on are built in the same run, none is looked for in ~/.m2; only its tests run. The
# Maven stage formatted the sources already.)
if ! ./mvnw -B -q -pl system-tests -am -Pstack verify -Dtest='io/pmedia/system/*Test' -Dformatter.skip -Dimpsort.skip \
  -Dsurefire.failIfNoSpecifiedTests=false >"$work/system-tests.log" 2>&1; then
  # (with AssertJ's descriptions: the lines in brackets that are not Maven's own, cut at 3000 characters)
  grep -P 'Tests run|FAIL|expected|but was|Expecting|^\[(?!INFO|ERROR|WARNING)' "$work/system-tests.log" |
    cut -c1-3000 | head -n 40 >&2 || true
  cp "$work/system-tests.log" "$ROOT/.pmedia/logs/system-tests.log" 2>/dev/null || true
  fail "system tests (log: .pmedia/logs/system-tests.log, reports: system-tests/target/surefire-reports)"
fi
pass "system tests: $(grep -h 'Tests run' system-tests/target/surefire-reports/*.txt | awk -F'[ ,]+' '{n+=$3} END {print n}') tests through the gateway (BOLA, one request's trace ...)"

# --- memory outside the heap under the stage's load, against the figures deploy/k8s's limits are computed from ------
kill "$sampler_pid" 2>/dev/null || true
sampler_pid=""
if ! memory="$(bash scripts/memory-check.sh check "$work/memory")"; then
  printf '%s\n' "$memory" >&2
  fail "a service held more memory outside its heap than docs/performance.md's figure allows (measure it again with bench/memory/native.sh; MemoryTest then sizes its limit)"
fi
pass "memory outside the heap within the written figures: $(printf '%s\n' "$memory" | sed -n 's/^ok \([^:]*\): \([0-9]*\) MiB.* \([0-9]*\) with headroom$/\1 \2\/\3/p' | sort | paste -sd' ') MiB"

# --- the quick fault scenarios (docs/reliability.md): the broker, a render worker and the database taken away --------
if ! chaos_lines="$(./pmedia chaos kafka-outage worker-kill postgres-outage on-view-kafka-outage --quick 2>&1)"; then
  printf '%s\n' "$chaos_lines" | tail -n 40 >&2
  fail "chaos scenarios (log: .pmedia/logs/chaos.log)"
fi
while IFS= read -r line; do
  case "$line" in *" lost, "*) pass "chaos $line" ;; esac
done <<<"$chaos_lines"

printf '\033[1;32mend-to-end: all checks passed\033[0m\n'
