# shellcheck shell=bash
# The services: which exist, building the stale ones, and running an instance from a copy of its build with the
# environment of docs/configuration.md.

module_dir() { echo "$ROOT/$1-service"; }
built_jar() { echo "$(module_dir "$1")/target/quarkus-app/quarkus-run.jar"; }

reactor_modules() { sed -n 's:.*<module>[[:space:]]*\([^<[:space:]]*\)[[:space:]]*</module>.*:\1:p' "$ROOT/pom.xml"; }

in_reactor() {
  local module
  for module in $(reactor_modules); do [ "$module" = "$1" ] && return 0; done
  return 1
}

# Names of the base services that exist and are part of the build (in start order).
service_names() {
  local entry name
  for entry in "${SERVICES[@]}"; do
    name="${entry%%:*}"
    [ -f "$(module_dir "$name")/pom.xml" ] && in_reactor "$name-service" && echo "$name"
  done
  return 0
}

# What a service's build reads from outside its module, as its pom names it (${maven.multiModuleProjectDirectory}/...:
# the gateway's console/, the TypeScript SDK it bundles, the docs it serves), npm's build/ aside (npm ci keeps it). An
# entry point (index.*) stands for its folder, whose files it bundles; a folder named beside paths inside it (a
# resource folder with includes, as docs/ with docs/asyncapi.yaml) stands for those paths only.
outside_inputs() { # service
  local path paths=() other inside
  while IFS= read -r path; do
    case "$path" in build/* | "") continue ;; esac
    case "${path##*/}" in index.*) path="${path%/*}" ;; esac
    paths+=("$path")
  done < <({ grep -o '${maven.multiModuleProjectDirectory}/[^<]*' "$(module_dir "$1")/pom.xml" 2>/dev/null || true; } |
    sed 's|^${maven.multiModuleProjectDirectory}/||' | sort -u)
  for path in "${paths[@]}"; do
    inside=0
    for other in "${paths[@]}"; do
      case "$other" in "$path"/*) inside=1 ;; esac
    done
    [ "$inside" = 0 ] && [ -e "$ROOT/$path" ] && printf '%s\n' "$ROOT/$path"
  done
  return 0
}

# True when the service's jar is missing or older than its sources, the shared modules' sources, a pom, or what its
# build reads from outside its module (outside_inputs).
stale() { # service
  local jar dirs=() module input
  jar="$(built_jar "$1")"
  [ -f "$jar" ] || return 0
  dirs=("$ROOT/pom.xml" "$(module_dir "$1")/pom.xml" "$(module_dir "$1")/src/main")
  for module in $(reactor_modules); do
    case "$module" in *-service | system-tests) continue ;; esac
    dirs+=("$ROOT/$module/pom.xml" "$ROOT/$module/src/main")
  done
  while IFS= read -r input; do dirs+=("$input"); done < <(outside_inputs "$1")
  [ -n "$(find "${dirs[@]}" -newer "$jar" -type f -print -quit 2>/dev/null)" ]
}

# The Maven flags of up's build: only what runs (no test classes compiled, sources not reformatted), modules in
# parallel (one per core: a fresh machine downloads while it compiles), dependency POMs collected breadth-first with
# parallel downloads (Maven 3.9's "bf" collector; the default walks them one at a time).
BUILD_FLAGS=(-B -q -T 1C -Dmaven.test.skip=true -Dformatter.skip=true -Dimpsort.skip=true
  -Daether.dependencyCollector.impl=bf)
BUILD_PID=""

# Starts the build of the stale services (./mvnw package) in the background; build_wait collects it, so that
# packages, PostgreSQL, Kafka and S3Proxy come up while Maven works. A service with a running instance is never
# rebuilt.
build_start() {
  local name modules=() entry
  for entry in "${SERVICES[@]}"; do
    name="${entry%%:*}"
    if [ -f "$(module_dir "$name")/pom.xml" ] && ! in_reactor "$name-service"; then
      info "$name-service is not in the root pom's <modules> yet: not built, not started"
    fi
  done
  if [ "${PMEDIA_SKIP_BUILD:-0}" = 1 ]; then
    info "PMEDIA_SKIP_BUILD=1: not building"
    return 0
  fi
  for name in $(service_names); do
    stale "$name" || continue
    if service_in_use "$name"; then
      warn "$name runs an older build than its sources; ./pmedia down && ./pmedia up picks up the changes"
    else
      modules+=("$name-service")
    fi
  done
  [ "${#modules[@]}" -gt 0 ] || return 0
  local list
  list="$(
    IFS=,
    echo "${modules[*]}"
  )"
  info "building $list in the background (./mvnw package, tests skipped; log: $LOGS/build.log)"
  "$ROOT/mvnw" "${BUILD_FLAGS[@]}" -pl "$list" -am package >"$LOGS/build.log" 2>&1 &
  BUILD_PID=$!
  # up stopped by an error meanwhile (a package that does not install) stops the build too.
  trap 'rm -rf "$RUN/lock"; [ -z "$BUILD_PID" ] || kill "$BUILD_PID" 2>/dev/null || true' EXIT
}

# Waits for build_start's build; a failed build names its errors and stops up.
build_wait() {
  [ -n "$BUILD_PID" ] || return 0
  local pid="$BUILD_PID"
  BUILD_PID=""
  if ! wait "$pid"; then
    grep -E '^\[ERROR\]' "$LOGS/build.log" | head -n 20 | sed 's/^/    | /' >&2 || true
    die "the build failed (see $LOGS/build.log); PMEDIA_SKIP_BUILD=1 ./pmedia up starts the jars already built"
  fi
  info "built"
}

# The environment every service instance shares (docs/configuration.md); each adds its ports, work directory and
# extra environment (component_env).
service_env() {
  SERVICE_ENV=(
    "PMEDIA_DB_HOST=$DB_HOST" "PMEDIA_DB_PORT=$DB_PORT" "PMEDIA_DB_USER=$DB_USER" "PMEDIA_DB_PASSWORD=$DB_PASSWORD"
    "PMEDIA_KAFKA_BOOTSTRAP=$KAFKA_BOOTSTRAP"
    "PMEDIA_S3_ENDPOINT=$S3_ENDPOINT" "PMEDIA_S3_BUCKET=$S3_BUCKET" "PMEDIA_S3_REGION=$S3_REGION"
    "PMEDIA_S3_ACCESS_KEY=$(env_get PMEDIA_S3_ACCESS_KEY)" "PMEDIA_S3_SECRET_KEY=$(env_get PMEDIA_S3_SECRET_KEY)"
    "PMEDIA_ADMIN_TOKEN=$(env_get PMEDIA_ADMIN_TOKEN)" "PMEDIA_INTERNAL_TOKEN=$(env_get PMEDIA_INTERNAL_TOKEN)"
    "PMEDIA_JWT_PRIVATE_KEY=$KEYS/jwt-signing.pem" "PMEDIA_JWT_KEY_ID=$JWT_KEY_ID" "PMEDIA_JWT_PUBLIC_KEYS=$KEYS/jwks.json"
    "PMEDIA_JWKS_URL=$GATEWAY_URL/.well-known/jwks.json" "PMEDIA_GATEWAY_INTERNAL_URL=$GATEWAY_URL"
    "PMEDIA_TLS_CERT=$KEYS/tls.crt" "PMEDIA_TLS_KEY=$KEYS/tls.key"
    "PMEDIA_FETCH_ALLOWED_NETWORKS=127.0.0.0/8,::1/128"
    "QUARKUS_HTTP_HOST=$HTTP_HOST" "QUARKUS_MANAGEMENT_HOST=$HTTP_HOST"
    # glibc's native allocations (the graphics engine's above all) in two arenas, not one per thread up to 8 per core,
    # each keeping what it freed: as the images run them (deploy/docker/Dockerfile; docs/decisions.md)
    "MALLOC_ARENA_MAX=2"
  )
  if running zipkin; then
    SERVICE_ENV+=("PMEDIA_OTEL_DISABLED=false" "PMEDIA_TRACING_EXPORTER=zipkin"
      "PMEDIA_ZIPKIN_ENDPOINT=$ZIPKIN_URL/api/v2/spans" "QUARKUS_OTEL_BSP_SCHEDULE_DELAY=1s")
  fi
}

# True when the copy APP was made after every file of the build BUILD was written: nothing to copy again (a service's
# build is 50 to 120 MB; up after down no longer copies seven of them).
app_current() { # app build
  [ -f "$1/.copied" ] && [ -f "$1/quarkus-run.jar" ] && [ -z "$(find "$2" -newer "$1/.copied" -print -quit)" ]
}

# Starts one service instance (a base service or a replica) unless it runs. It runs from .pmedia/app/SERVICE, a copy
# of the build, so that a later build or test run in the checkout (which rewrites target/quarkus-app) never disturbs
# the running stack; instances of one service share the copy. Returns 1 when the service is not built.
start_instance() { # name
  local name="$1" service port jar app extra=()
  service="$(component_service "$name")"
  port="$(component_port "$name")"
  running "$name" && return 0
  jar="$(built_jar "$service")"
  [ -f "$jar" ] || {
    warn "$service is not built ($jar is missing): $name not started"
    return 1
  }
  port_open "$port" && die "port $port ($name) is taken by a process ./pmedia did not start (stop it, then run up again)"
  port_open $((port + 1100)) &&
    die "port $((port + 1100)) ($name's management interface) is taken by a process ./pmedia did not start"
  app="$APPS/$service"
  if ! { [ -f "$app/quarkus-run.jar" ] && service_in_use "$service"; } && ! app_current "$app" "$(dirname "$jar")"; then
    rm -rf "$app"
    cp -a "$(dirname "$jar")" "$app"
    touch "$app/.copied"
  fi
  mkdir -p "$WORK/$name"
  mapfile -t extra < <(component_env "$name")
  service_env
  local user=""
  if kafka_acls; then user="$(instance_kafka_user "$name" "$service" "${extra[@]}")" || exit 1; fi
  info "starting $name on :$port${extra[*]:+ (${extra[*]})}${user:+ as Kafka user $user}"
  # The Kafka credentials reach the service through the environment, as a Strimzi Secret does in the cluster (Quarkus
  # reads KAFKA_* as kafka.*), exported here: a command line is readable by every user of the machine.
  (
    if [ -n "$user" ]; then
      export KAFKA_SECURITY_PROTOCOL=SASL_PLAINTEXT KAFKA_SASL_MECHANISM=SCRAM-SHA-512
      KAFKA_SASL_JAAS_CONFIG="$(kafka_jaas "$user")"
      export KAFKA_SASL_JAAS_CONFIG
    fi
    # The heap is sized at start (-Xms = -Xmx), as a server's is: grown from 64 MB, it kept a small young generation
    # and under load promoted short-lived objects, with a full collection every few seconds (docs/decisions.md).
    spawn "$name" env "${SERVICE_ENV[@]}" "PMEDIA_WORK_DIR=$WORK/$name" \
      "QUARKUS_HTTP_PORT=$port" "QUARKUS_MANAGEMENT_PORT=$((port + 1100))" "${extra[@]}" \
      java -Xms384m -Xmx384m -XX:+UseSerialGC -Djava.awt.headless=true -jar "$app/quarkus-run.jar"
  )
}

# The KafkaUser an instance connects as (kafka_user_of): its service's, in the role its environment gives media
# (PMEDIA_MEDIA_ROLE from its extra environment, else exported, else both). Dies when the cluster runs that service
# as a Kafka client but in no such role: such a process could not authenticate.
instance_kafka_user() { # name service extra-env...
  local name="$1" service="$2" role="${PMEDIA_MEDIA_ROLE:-both}" variable user
  shift 2
  for variable in "$@"; do
    case "$variable" in PMEDIA_MEDIA_ROLE=*) role="${variable#*=}" ;; esac
  done
  user="$(kafka_user_of "$service" "$role")"
  if [ -z "$user" ] && awk -v s="$service" '$1 == s { found = 1 } END { exit !found }' "$KAFKA_CLIENTS"; then
    die "$name: no Deployment of deploy/k8s runs $service-service in the role '$role', so no KafkaUser fits it (with PMEDIA_KAFKA_ACLS=1, media runs as media-api beside media-worker-N)"
  fi
  printf '%s' "$user"
}

# Starts every service instance: the gateway first, alone (the others read its JWKS at start), then the rest together.
# Dies when the gateway does not become ready; FAILED lists the others that did not.
start_services() {
  local names=() name started=() deadline
  FAILED=()
  mapfile -t names < <(service_instances)
  if [ "${#names[@]}" -gt 0 ] && [ "${names[0]}" = gateway ] && start_instance gateway; then
    component_await gateway || die "the gateway did not start (see $LOGS/gateway.log)"
  fi
  for name in "${names[@]}"; do
    [ "$name" = gateway ] && continue
    start_instance "$name" && started+=("$name")
  done
  deadline=$((SECONDS + READY_TIMEOUT))
  for name in "${started[@]}"; do
    component_await "$name" "$deadline" || FAILED+=("$name")
  done
}
