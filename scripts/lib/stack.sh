# shellcheck shell=bash
# Shared by scripts/e2e.sh and bench/*/run.sh (sourced from the repository root): the running ./pmedia stack, its
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
