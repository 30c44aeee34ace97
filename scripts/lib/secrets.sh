# shellcheck shell=bash
# Keys and secrets of the local stack, generated once and never printed: the JWT signing key, its JWKS and the dev TLS
# certificate in .pmedia/keys/ (scripts/DevKeys.java, JDK only), and in .pmedia/local.env the admin and internal
# tokens and the object store's credentials. Deleting one makes the next `up` generate it again.

ensure_secrets() {
  mkdir -p "$KEYS"
  chmod 700 "$KEYS"
  if [ ! -s "$KEYS/jwt-signing.pem" ] || [ ! -s "$KEYS/jwks.json" ] || [ ! -s "$KEYS/tls.crt" ] || [ ! -s "$KEYS/tls.key" ]; then
    info "generating the dev keys into .pmedia/keys (JWT signing key, JWKS, TLS certificate)"
    java -Xmx128m "$ROOT/scripts/DevKeys.java" "$KEYS" "$JWT_KEY_ID" >>"$LOGS/keys.log" 2>&1 ||
      die "scripts/DevKeys.java could not generate the dev keys: $(tail -n 1 "$LOGS/keys.log")"
  fi
  local key
  for key in PMEDIA_ADMIN_TOKEN PMEDIA_INTERNAL_TOKEN; do
    [ -n "$(env_get "$key")" ] || env_set "$key" "$(random_hex 32)"
  done
  # The object store's identity: AWS-shaped (a 20-character key id, a 40-character secret), so any S3 client takes it.
  if [ -z "$(env_get PMEDIA_S3_ACCESS_KEY)" ] || [ -z "$(env_get PMEDIA_S3_SECRET_KEY)" ]; then
    env_set PMEDIA_S3_ACCESS_KEY "PM$(random_hex 9 | tr 'a-f' 'A-F')"
    env_set PMEDIA_S3_SECRET_KEY "$(random_hex 20)"
  fi
  chmod 600 "$ENV_FILE"
}
