# shellcheck shell=bash
# Through the gateway's operator API with the admin token: the demo vendor is onboarded (again when the database no
# longer knows it) and the sample templates in deploy/local/templates/ are registered; their ids go to local.env.

onboard_demo_vendor() {
  local admin id answer code body
  admin="$(env_get PMEDIA_ADMIN_TOKEN)"
  id="$(env_get PMEDIA_DEMO_CLIENT_ID)"
  if [ -n "$id" ]; then
    code="$(curl -s -o /dev/null --max-time 30 -w '%{http_code}' -H "Authorization: Bearer $admin" \
      "$GATEWAY_URL/admin/clients/$id" || true)"
    case "$code" in
      200) return 0 ;;
      404) info "the demo vendor $id no longer exists (database reset?): onboarding it again" ;;
      *) die "cannot check the demo vendor: GET /admin/clients/$id answered HTTP ${code:-none} (see $LOGS/gateway.log)" ;;
    esac
  fi
  info "onboarding the demo vendor (POST /admin/clients)"
  answer="$(http -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    -d '{"name":"Demo Vendor","allowed-ips":["127.0.0.1"]}' "$GATEWAY_URL/admin/clients")"
  code="${answer##*$'\n'}"
  body="${answer%$'\n'*}"
  [ "$code" = 201 ] || die "onboarding the demo vendor failed: HTTP $code ${body:0:300}"
  local key field value
  for key in client-id:PMEDIA_DEMO_CLIENT_ID client-secret:PMEDIA_DEMO_CLIENT_SECRET api-key:PMEDIA_DEMO_API_KEY \
    webhook-secret:PMEDIA_DEMO_WEBHOOK_SECRET; do
    field="${key%%:*}"
    value="$(json_field "$body" "$field")"
    [ -n "$value" ] || die "the onboarding answer has no \"$field\""
    env_set "${key##*:}" "$value"
  done
}

# The sample motions and templates, registered again only when something they depend on changed: their files, the
# demo vendor (a new one after a database reset) or media-service's build (which checks them). Registering is
# idempotent, but twenty-odd POSTs that each resolve a template are most of an up that has nothing else to do.
register_samples() {
  local stamp="$RUN/samples-registered" signature
  running media || return 0
  signature="$(
    {
      env_get PMEDIA_DEMO_CLIENT_ID
      stat -c '%Y %s' "$APPS/media/quarkus-run.jar" 2>/dev/null || true
      cat "$ROOT"/deploy/local/motions/*.json "$ROOT"/deploy/local/templates/*.json 2>/dev/null
    } | sha256sum | cut -d' ' -f1
  )"
  if [ "$(cat "$stamp" 2>/dev/null)" = "$signature" ] && demo_template_registered; then
    info "sample motions and templates registered already (nothing they depend on changed)"
    return 0
  fi
  rm -f "$stamp"
  register_motions
  register_templates && [ "${SAMPLES_FAILED:-0}" = 0 ] && printf '%s\n' "$signature" >"$stamp"
  return 0
}

# Whether the demo template named in local.env is still the demo vendor's (GET /templates/{id} with its token): another
# checkout's stack on this machine shares the databases, and its tests may have removed what this stamp remembers.
demo_template_registered() {
  local id body token
  id="$(env_get PMEDIA_DEMO_TEMPLATE_ID)"
  [ -n "$id" ] || return 1
  body="{\"client_id\":\"$(env_get PMEDIA_DEMO_CLIENT_ID)\",\"client_secret\":\"$(env_get PMEDIA_DEMO_CLIENT_SECRET)\"}"
  # (the secret through stdin: a command line is readable by every user of the machine)
  token="$(json_field "$(printf '%s' "$body" | curl -s --max-time 10 -X POST -H 'Content-Type: application/json' \
    --data-binary @- "$GATEWAY_URL/auth/token" || true)" access_token)"
  [ -n "$token" ] && [ "$(curl -s -o /dev/null --max-time 10 -w '%{http_code}' -H "Authorization: Bearer $token" \
    "$GATEWAY_URL/templates/$id" || true)" = 200 ]
}

# Registers deploy/local/motions/*.json as shared motions (POST /admin/motions, by file name; idempotent on the
# service side): the Lottie files the sample templates' lottie layers name.
register_motions() {
  local admin file answer code name failed=0
  running media || return 0
  compgen -G "$ROOT/deploy/local/motions/*.json" >/dev/null || return 0
  admin="$(env_get PMEDIA_ADMIN_TOKEN)"
  for file in "$ROOT"/deploy/local/motions/*.json; do
    name="$(basename "$file" .json)"
    answer="$({ printf '{"name": "%s", "lottie": ' "$name"; cat "$file"; printf '}'; } \
      | http -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' --data-binary @- \
        "$GATEWAY_URL/admin/motions")"
    code="${answer##*$'\n'}"
    case "$code" in
      200 | 201) ;;
      *)
        warn "registering motion $name failed: HTTP $code ${answer:0:300}"
        failed=1
        ;;
    esac
  done
  [ "$failed" = 0 ] && info "sample motions registered"
  SAMPLES_FAILED=$((${SAMPLES_FAILED:-0} + failed))
  return 0
}

# Registers deploy/local/templates/*.json (idempotent on the service side); greeting.json is the demo template. The
# sample media some of them show are generated and stored first (samples.sh).
register_templates() {
  local admin file answer code body name client assets failed=0
  running media || return 0
  compgen -G "$ROOT/deploy/local/templates/*.json" >/dev/null || return 0
  admin="$(env_get PMEDIA_ADMIN_TOKEN)"
  client="$(env_get PMEDIA_DEMO_CLIENT_ID)"
  assets="$(store_sample_media "$client")"
  for file in "$ROOT"/deploy/local/templates/*.json; do
    name="$(basename "$file" .json)"
    answer="$(sample_template "$file" "$client" "$assets" | http -X POST -H "Authorization: Bearer $admin" \
      -H 'Content-Type: application/json' --data-binary @- "$GATEWAY_URL/admin/templates")"
    code="${answer##*$'\n'}"
    body="${answer%$'\n'*}"
    case "$code" in
      200 | 201) ;;
      *)
        warn "registering template $name failed: HTTP $code ${body:0:300}"
        failed=1
        continue
        ;;
    esac
    if [ "$name" = greeting ]; then
      env_set PMEDIA_DEMO_USE_CASE_ID "$(json_field "$body" use-case-id)"
      env_set PMEDIA_DEMO_TEMPLATE_ID "$(json_field "$body" template-id)"
    fi
  done
  [ "$failed" = 0 ] && info "sample templates registered"
  SAMPLES_FAILED=$((${SAMPLES_FAILED:-0} + failed))
  return 0
}
