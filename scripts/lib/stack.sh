# Shared by scripts/e2e.sh and bench/*/run.sh (sourced from the repository root): the running ./pmedia stack, its
# .pmedia/local.env, and reading a field of a flat JSON answer.

# use_stack COMPONENT: runs ./pmedia up unless COMPONENT is up already; STACK_STARTED_HERE=1 when it started it.
use_stack() {
  local status
  STACK_STARTED_HERE=0
  # (status captured first: grep -q closing the pipe early must not make a running stack look down)
  status="$(./pmedia status 2>/dev/null || true)"
  if ! printf '%s\n' "$status" | grep -q "^$1 *up"; then
    ./pmedia up
    STACK_STARTED_HERE=1
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
