# shellcheck shell=bash
# .pmedia/local.env: KEY=VALUE lines, no quotes, mode 600 (contracts.md). What `up` generates or learns (tokens,
# S3 credentials, the demo vendor, the demo template) is kept here, so a second `up` reuses it.

env_get() { # KEY -> its value, or nothing
  [ -f "$ENV_FILE" ] || return 0
  sed -n "s/^$1=//p" "$ENV_FILE" | tail -n 1
}

env_set() { # KEY VALUE
  case "$2" in *$'\n'*) die "refusing to write a multi-line value for $1 into $ENV_FILE" ;; esac
  local tmp
  tmp="$(mktemp "$STATE/.local.env.XXXXXX")"
  chmod 600 "$tmp"
  [ -f "$ENV_FILE" ] && { grep -v "^$1=" "$ENV_FILE" >"$tmp" || true; }
  printf '%s=%s\n' "$1" "$2" >>"$tmp"
  mv -f "$tmp" "$ENV_FILE"
}

# The contract's keys first, in this order, then whatever else the file holds.
ENV_ORDER=(PMEDIA_GATEWAY_URL PMEDIA_GATEWAY_HTTPS_URL PMEDIA_ADMIN_TOKEN PMEDIA_DEMO_CLIENT_ID
  PMEDIA_DEMO_CLIENT_SECRET PMEDIA_DEMO_API_KEY PMEDIA_S3_ENDPOINT PMEDIA_S3_BUCKET PMEDIA_S3_ACCESS_KEY
  PMEDIA_S3_SECRET_KEY PMEDIA_DEMO_USE_CASE_ID PMEDIA_DEMO_TEMPLATE_ID PMEDIA_DEMO_WEBHOOK_SECRET PMEDIA_INTERNAL_TOKEN)

env_normalize() {
  [ -f "$ENV_FILE" ] || return 0
  local tmp key pattern=''
  tmp="$(mktemp "$STATE/.local.env.XXXXXX")"
  chmod 600 "$tmp"
  for key in "${ENV_ORDER[@]}"; do
    if grep -q "^$key=" "$ENV_FILE"; then printf '%s=%s\n' "$key" "$(env_get "$key")" >>"$tmp"; fi
    pattern="$pattern${pattern:+|}^$key="
  done
  grep -Ev "$pattern" "$ENV_FILE" >>"$tmp" || true
  mv -f "$tmp" "$ENV_FILE"
}
