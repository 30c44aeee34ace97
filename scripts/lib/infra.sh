# shellcheck shell=bash
# The local infrastructure ./pmedia runs itself: Kafka (KRaft, one combined broker+controller node) and S3Proxy, the
# object store, which checks signatures with the credentials in .pmedia/local.env.

# --- Kafka --------------------------------------------------------------------------------------------------------

# Whether the stack's broker authenticates its clients and enforces the KafkaUsers' ACLs (the mode `up` chose).
kafka_acls() { [ "$(cat "$KAFKA_MODE_FILE" 2>/dev/null)" = 1 ]; }

# `up`: the mode of this stack. PMEDIA_KAFKA_ACLS=1 or 0 when given; else the one the running stack has, else 0. A
# running stack keeps its mode: another one needs ./pmedia down first (every client's credentials would change).
choose_kafka_mode() {
  local wanted="${PMEDIA_KAFKA_ACLS:-}" recorded name
  case "$wanted" in '' | 0 | 1) ;; *) die "PMEDIA_KAFKA_ACLS must be 0 or 1, not '$wanted'" ;; esac
  recorded="$(cat "$KAFKA_MODE_FILE" 2>/dev/null || true)"
  if [ -n "$recorded" ] && [ -n "$wanted" ] && [ "$wanted" != "$recorded" ]; then
    for name in kafka $(service_instances); do
      running "$name" &&
        die "the stack runs with PMEDIA_KAFKA_ACLS=$recorded ($name is up): ./pmedia down, then PMEDIA_KAFKA_ACLS=$wanted ./pmedia up"
    done
  fi
  if [ -z "$wanted" ]; then wanted="${recorded:-0}"; fi
  echo "$wanted" >"$KAFKA_MODE_FILE"
}

kafka_probe() { # ready|roundtrip seconds
  local config=()
  if kafka_acls; then config=("$KAFKA_KEYS/admin.properties"); fi
  java -Xmx128m -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$KAFKA_LIB/*" \
    "$ROOT/scripts/KafkaProbe.java" "$KAFKA_BOOTSTRAP" "$1" "$2" "${config[@]}" 2>>"$LOGS/kafka-probe.log"
}

# scripts/KafkaUsers.java with the broker's jars: `credentials` (each principal's client configuration in
# .pmedia/keys/kafka, generated once; which service runs as which KafkaUser into KAFKA_CLIENTS) or `apply` (topics,
# SCRAM users and exactly the KafkaUsers' ACLs, as the admin). Its output names no password.
kafka_users() { # credentials|apply
  local args=("$1" "$KAFKA_MANIFESTS" "$KAFKA_KEYS")
  if [ "$1" = apply ]; then args+=("$KAFKA_BOOTSTRAP"); fi
  mkdir -p "$(dirname "$KAFKA_CLIENTS")"
  if [ "$1" = credentials ]; then
    java -Xmx128m -cp "$KAFKA_LIB/*" "$ROOT/scripts/KafkaUsers.java" "${args[@]}" >"$KAFKA_CLIENTS.tmp" \
      2>>"$LOGS/kafka-users.log" || die "scripts/KafkaUsers.java credentials failed (see $LOGS/kafka-users.log)"
    mv -f "$KAFKA_CLIENTS.tmp" "$KAFKA_CLIENTS"
  else
    local summary
    summary="$(java -Xmx128m -cp "$KAFKA_LIB/*" "$ROOT/scripts/KafkaUsers.java" "${args[@]}" 2>>"$LOGS/kafka-users.log")" ||
      die "cannot apply the KafkaUsers of deploy/k8s to the broker (see $LOGS/kafka-users.log)"
    info "$summary"
  fi
}

# The KafkaUser a service instance connects as: the Deployment of the cluster that runs the same service in the same
# role (media's PMEDIA_MEDIA_ROLE) reads that user's Secret. Nothing for a service that has no Kafka identity.
kafka_user_of() { # service role
  [ -f "$KAFKA_CLIENTS" ] || return 0
  awk -v service="$1" -v role="$2" '$1 == service && ($2 == role || $2 == "-") { print $3; exit }' "$KAFKA_CLIENTS"
}

# sasl.jaas.config of a principal's client configuration (.pmedia/keys/kafka/NAME.properties).
kafka_jaas() { # principal
  sed -n 's/^sasl\.jaas\.config=//p' "$KAFKA_KEYS/$1.properties" 2>/dev/null | head -n 1
}

start_kafka() {
  local dir="$STATE/kafka" answer
  if kafka_acls; then kafka_users credentials; fi
  if ! running kafka; then
    port_open 9092 && die "port 9092 is taken by a process ./pmedia did not start (stop it, then run up again)"
    port_open 9093 && die "port 9093 (Kafka controller) is taken by a process ./pmedia did not start"
    mkdir -p "$dir/data"
    # With ACLs the rendered configuration holds the broker's SASL credentials: mode 600.
    local template saved_umask
    template="$(cat "$ROOT/deploy/local/kafka/server.properties")"
    if kafka_acls; then
      template="$template"$'\n'"$(cat "$ROOT/deploy/local/kafka/acls.properties" "$KAFKA_KEYS/broker-listeners.properties")"
    fi
    saved_umask="$(umask)"
    umask 077
    rm -f "$dir/server.properties"
    printf '%s\n' "${template//@DATA_DIR@/$dir/data}" >"$dir/server.properties"
    umask "$saved_umask"
    if [ ! -f "$dir/data/meta.properties" ]; then
      local cluster_id
      cluster_id="$(java -cp "$KAFKA_LIB/*" kafka.tools.StorageTool random-uuid 2>>"$LOGS/kafka-format.log" | tail -n 1)"
      [ -n "$cluster_id" ] || die "kafka.tools.StorageTool random-uuid failed (see $LOGS/kafka-format.log)"
      java -cp "$KAFKA_LIB/*" kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" \
        --standalone --ignore-formatted >>"$LOGS/kafka-format.log" 2>&1 ||
        die "cannot format Kafka's storage (see $LOGS/kafka-format.log)"
    fi
    info "starting Kafka $KAFKA_VERSION on $KAFKA_BOOTSTRAP$(if kafka_acls; then echo " (SASL/SCRAM, the KafkaUsers' ACLs)"; fi)"
    spawn kafka java -Xms256m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.showDateTime=true \
      "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS" \
      -Dorg.slf4j.simpleLogger.log.kafka.server.KafkaRaftServer=info \
      -cp "$KAFKA_LIB/*" kafka.Kafka "$dir/server.properties"
    wait_for_port kafka 9092
  fi
  answer="$(kafka_probe ready 60)" || die "Kafka does not serve requests: $answer (see $LOGS/kafka.log)"
  if kafka_acls; then kafka_users apply; fi
}

# --- S3Proxy ------------------------------------------------------------------------------------------------------

# curl signed (AWS SigV4) with the store's credentials from .pmedia/local.env. They reach curl through its config on
# standard input, never its command line (which other users of the machine can read in /proc).
s3_curl() { # curl args...
  printf 'user = "%s:%s"\n' "$(env_get PMEDIA_S3_ACCESS_KEY)" "$(env_get PMEDIA_S3_SECRET_KEY)" |
    curl --config - -s --max-time 10 --aws-sigv4 "aws:amz:$S3_REGION:s3" \
      -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"
}

start_s3proxy() {
  if ! running s3proxy; then
    port_open "$S3_PORT" && die "port $S3_PORT is taken by a process ./pmedia did not start (stop it, then run up again)"
    mkdir -p "$STATE/s3"
    # The rendered configuration holds the secret: mode 600.
    local template saved_umask
    template="$(cat "$ROOT/deploy/local/s3proxy.conf")"
    template="${template//@BASEDIR@/$STATE/s3}"
    template="${template//@ACCESS_KEY@/$(env_get PMEDIA_S3_ACCESS_KEY)}"
    template="${template//@SECRET_KEY@/$(env_get PMEDIA_S3_SECRET_KEY)}"
    saved_umask="$(umask)"
    umask 077
    printf '%s\n' "$template" >"$STATE/s3proxy.conf"
    umask "$saved_umask"
    info "starting S3Proxy $S3PROXY_VERSION on $S3_ENDPOINT"
    spawn s3proxy java -Xmx256m -jar "$S3PROXY_JAR" --properties "$STATE/s3proxy.conf"
    wait_for_port s3proxy "$S3_PORT"
  fi
  ensure_bucket
}

# Creates the bucket with a signed request (200, or 409 when it exists), then checks that the store refuses what is
# not signed: a store left running by an older ./pmedia, anonymous, is not accepted.
ensure_bucket() {
  local code deadline=$((SECONDS + 30))
  while :; do
    code="$(s3_curl -o /dev/null -w '%{http_code}' -X PUT "$S3_ENDPOINT/$S3_BUCKET" || true)"
    case "$code" in
      200 | 409) break ;;
      403) die "S3Proxy refuses the credentials in .pmedia/local.env (HTTP 403 creating the bucket $S3_BUCKET): it runs with other ones; ./pmedia down && ./pmedia up restarts it with these" ;;
    esac
    [ "$SECONDS" -lt "$deadline" ] || die "cannot create the bucket $S3_BUCKET in S3Proxy (HTTP ${code:-none}; see $LOGS/s3proxy.log)"
    sleep 0.3
  done
  code="$(s3_curl -o /dev/null -w '%{http_code}' -I "$S3_ENDPOINT/$S3_BUCKET" || true)"
  [ "$code" = 200 ] || die "the bucket $S3_BUCKET does not answer a signed HEAD with 200 (HTTP ${code:-none}; see $LOGS/s3proxy.log)"
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$S3_ENDPOINT/$S3_BUCKET" || true)"
  [ "$code" = 403 ] ||
    die "S3Proxy answers an anonymous listing of $S3_BUCKET with HTTP ${code:-nothing}, not 403: it runs without signature checks (started by an older ./pmedia?); ./pmedia down && ./pmedia up"
}

# --- Zipkin (PMEDIA_TRACING=1) -------------------------------------------------------------------------------------

# Zipkin's server with in-memory storage on 127.0.0.1:9411: the UI and the API (/api/v2/trace/ID) of the traces the
# services send (/api/v2/spans). Its traces are gone when it stops.
start_zipkin() {
  if ! running zipkin; then
    port_open "$ZIPKIN_PORT" && die "port $ZIPKIN_PORT is taken by a process ./pmedia did not start (stop it, then run up again)"
    fetch_zipkin
    info "starting Zipkin $ZIPKIN_VERSION on $ZIPKIN_URL (tracing on)"
    spawn zipkin env STORAGE_TYPE=mem QUERY_PORT="$ZIPKIN_PORT" \
      java -Xmx256m -XX:+UseSerialGC -jar "$ZIPKIN_JAR" "--armeria.ports[0].ip=127.0.0.1" \
      "--armeria.ports[0].port=$ZIPKIN_PORT" "--armeria.ports[0].protocols=http"
    wait_for_port zipkin "$ZIPKIN_PORT"
  fi
  await_ready zipkin "$ZIPKIN_PORT" $((SECONDS + READY_TIMEOUT)) /health || die "Zipkin is not ready"
}
