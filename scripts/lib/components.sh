# shellcheck shell=bash
# The component model. Every process of the local stack has a name, and the name alone says what it runs: its kind
# (infra or service), the service whose build it runs, its HTTP port (management interface: HTTP port + 1100) and
# its extra environment. PID file, log and work directory are named after it (.pmedia/run/NAME.pid,
# .pmedia/logs/NAME.log, .pmedia/work/NAME). The component_* functions at the end act on one component by name, for
# `up`, `down`, `status` and fault scenarios (kill one render worker, restart the broker, ...).

# Base services, name:HTTP port, in start order (the gateway first: the others read its JWKS). Module: NAME-service.
SERVICES=(gateway:8080 media:8081 batch:8082 vton:8083 campaign:8084 notifier:8085 engagement:8086)

# Replica groups, for PMEDIA_REPLICAS=GROUP=COUNT[,GROUP=COUNT...] (docs/local-stack.md). Each entry:
#   group | service whose build it runs | first instance number | its HTTP port | most instances | extra environment
# Instance names are GROUP-NUMBER. A group named after a base service counts that service as its instance 1, so its
# extra instances start at 2. Each group has its own block of ports from 8090 up, so an instance's port never
# depends on how many instances another group has.
REPLICA_GROUPS=(
  "media-worker|media|1|8090|5|PMEDIA_MEDIA_ROLE=worker" # render workers only: media-worker-1..5 on 8090-8094
  "notifier|notifier|2|8095|5|"                          # notifier-2..5 on 8095-8098, beside notifier on 8085
)

# The replica counts `up` last started with: status, down and single-component restarts use them when
# PMEDIA_REPLICAS is not set. `down` removes the file.
REPLICAS_FILE="$RUN/replicas"

# The replica spec in effect: PMEDIA_REPLICAS when set (even empty: none), else what the last `up` started.
replica_spec() {
  if [ -n "${PMEDIA_REPLICAS+set}" ]; then
    printf '%s' "$PMEDIA_REPLICAS"
  elif [ -f "$REPLICAS_FILE" ]; then
    cat "$REPLICAS_FILE"
  fi
}

# Dies naming the problem when the spec is not GROUP=COUNT[,...] with known groups and counts in range.
replicas_validate() {
  local spec item group count entry known max found items=()
  spec="$(replica_spec | tr -d ' ')"
  known="$(for entry in "${REPLICA_GROUPS[@]}"; do printf '%s ' "${entry%%|*}"; done)"
  IFS=',' read -ra items <<<"$spec"
  for item in "${items[@]}"; do
    [ -n "$item" ] || continue
    group="${item%%=*}"
    count="${item#*=}"
    [ "$group" != "$item" ] || die "PMEDIA_REPLICAS: '$item' is not GROUP=COUNT (e.g. PMEDIA_REPLICAS=media-worker=2,notifier=2)"
    found=''
    for entry in "${REPLICA_GROUPS[@]}"; do
      [ "${entry%%|*}" = "$group" ] && found="$entry"
    done
    [ -n "$found" ] || die "PMEDIA_REPLICAS: no replica group '$group' (groups: ${known% })"
    max="$(cut -d'|' -f5 <<<"$found")"
    if ! [[ "$count" =~ ^[0-9]+$ ]] || [ "$count" -gt "$max" ]; then
      die "PMEDIA_REPLICAS: '$item': the count of $group must be a number from 0 to $max"
    fi
  done
}

replica_count() { # group -> the count the spec asks for (0 when absent)
  local spec item count=0 items=()
  replicas_validate
  spec="$(replica_spec | tr -d ' ')"
  IFS=',' read -ra items <<<"$spec"
  for item in "${items[@]}"; do
    [ "${item%%=*}" = "$1" ] && count="${item#*=}"
  done
  # With Kafka ACLs media runs as in the cluster, media-api beside at least one media-worker: no KafkaUser is both.
  if [ "$1" = media-worker ] && [ "$count" -lt 1 ] && kafka_acls; then count=1; fi
  echo "$count"
}

# The names of the extra instances the spec asks for, in group order.
replica_names() {
  local entry group first count i
  for entry in "${REPLICA_GROUPS[@]}"; do
    IFS='|' read -r group _ first _ _ _ <<<"$entry"
    count="$(replica_count "$group")"
    for ((i = first; i <= count; i++)); do echo "$group-$i"; done
  done
}

# component_parse NAME -> "KIND SERVICE PORT GROUP" (GROUP '-' for infra and base services); status 1 when no
# component has that name.
component_parse() {
  local name="$1" entry group service first port max index
  case "$name" in
    postgres) echo "infra postgres $DB_PORT -" && return 0 ;;
    kafka) echo "infra kafka 9092 -" && return 0 ;;
    s3proxy) echo "infra s3proxy $S3_PORT -" && return 0 ;;
  esac
  for entry in "${SERVICES[@]}"; do
    [ "${entry%%:*}" = "$name" ] && echo "service $name ${entry##*:} -" && return 0
  done
  for entry in "${REPLICA_GROUPS[@]}"; do
    IFS='|' read -r group service first port max _ <<<"$entry"
    index="${name#"$group"-}"
    [ "$index" != "$name" ] && [[ "$index" =~ ^[1-9][0-9]*$ ]] || continue
    [ "$index" -ge "$first" ] && [ "$index" -le "$max" ] || continue
    echo "service $service $((port + index - first)) $group"
    return 0
  done
  return 1
}

component_kind() { local kind _r; read -r kind _r <<<"$(component_parse "$1")" && echo "$kind"; }
component_service() { local _k service _r; read -r _k service _r <<<"$(component_parse "$1")" && echo "$service"; }
component_port() { local _k _s port _r; read -r _k _s port _r <<<"$(component_parse "$1")" && echo "$port"; }

# The extra environment of a service instance, one KEY=VALUE a line: its group's, and for media the API role while
# render workers run beside it (they, not media, then take render jobs; docs/local-stack.md), which they always do
# with Kafka ACLs.
component_env() { # name
  local _k service _p group entry
  read -r _k service _p group <<<"$(component_parse "$1")"
  if [ "$group" != - ]; then
    for entry in "${REPLICA_GROUPS[@]}"; do
      [ "${entry%%|*}" = "$group" ] && [ -n "${entry##*|}" ] && tr ' ' '\n' <<<"${entry##*|}"
    done
  elif [ "$service" = media ] && [ "$(replica_count media-worker)" -gt 0 ]; then
    echo "PMEDIA_MEDIA_ROLE=api"
  elif [ "$service" = gateway ]; then
    # A vendor's API budget sized for one machine running everything (production defaults: 200/s and 20/s for
    # work; docs/security.md). An exported value wins (bench/gateway raises it for its single vendor).
    echo "PMEDIA_GATEWAY_API_LIMITS_CALLS_BURST=${PMEDIA_GATEWAY_API_LIMITS_CALLS_BURST:-100}"
    echo "PMEDIA_GATEWAY_API_LIMITS_CALLS_PER_SECOND=${PMEDIA_GATEWAY_API_LIMITS_CALLS_PER_SECOND:-50}"
    echo "PMEDIA_GATEWAY_API_LIMITS_CREATIONS_BURST=${PMEDIA_GATEWAY_API_LIMITS_CREATIONS_BURST:-50}"
    echo "PMEDIA_GATEWAY_API_LIMITS_CREATIONS_PER_SECOND=${PMEDIA_GATEWAY_API_LIMITS_CREATIONS_PER_SECOND:-10}"
    # The viewers' budget per address keeps its defaults (120, then 20 a second) unless exported: bench/engagement/
    # burst.sh opens hundreds of links from this one address, standing for as many viewers.
    if [ -n "${PMEDIA_GATEWAY_VIEWER_LIMITS_BURST:-}" ]; then
      echo "PMEDIA_GATEWAY_VIEWER_LIMITS_BURST=$PMEDIA_GATEWAY_VIEWER_LIMITS_BURST"
    fi
    if [ -n "${PMEDIA_GATEWAY_VIEWER_LIMITS_PER_SECOND:-}" ]; then
      echo "PMEDIA_GATEWAY_VIEWER_LIMITS_PER_SECOND=$PMEDIA_GATEWAY_VIEWER_LIMITS_PER_SECOND"
    fi
  fi
  # With Kafka ACLs the topics are the KafkaTopic objects' (as in the cluster, whose media Deployments set this too).
  if [ "$service" = media ] && kafka_acls; then echo "PMEDIA_MEDIA_RENDER_TOPIC_SETUP=false"; fi
  return 0
}

# Every service instance to start or show: the built base services, the replicas the spec asks for, and any other
# replica that still has a PID file (started by an earlier `up` with a larger spec), in start order.
service_instances() {
  local name file seen=" "
  for name in $(service_names) $(replica_names); do
    case "$seen" in *" $name "*) continue ;; esac
    seen="$seen$name "
    echo "$name"
  done
  for file in "$RUN"/*.pid; do
    [ -f "$file" ] || continue
    name="$(basename "$file" .pid)"
    case "$seen" in *" $name "*) continue ;; esac
    [ "$(component_kind "$name" || true)" = service ] && echo "$name"
  done
  return 0
}

# Whether any running instance runs SERVICE's build (its copy in .pmedia/app/SERVICE is then in use).
service_in_use() { # service
  local file name
  for file in "$RUN"/*.pid; do
    [ -f "$file" ] || continue
    name="$(basename "$file" .pid)"
    [ "$(component_service "$name" || true)" = "$1" ] && running "$name" && return 0
  done
  return 1
}

# --- acting on one component by name ------------------------------------------------------------------------------

component_known() { component_parse "$1" >/dev/null || die "no component named '$1' (./pmedia status lists them)"; }

component_pid() { # name -> its PID while it runs, else nothing
  local pid
  pid="$(pid_of "$1")"
  if pid_ours "$pid"; then echo "$pid"; fi
  return 0
}

# Starts NAME unless it runs; does not wait for a service to be ready (component_await does). Infra is ready on return.
component_start() { # name
  component_known "$1"
  case "$1" in
    postgres)
      # Back after a fault scenario stopped it: still not "started by up", so `down` leaves it running.
      if [ -f "$RUN/postgres.started" ]; then ensure_postgres_server; else ensure_postgres_server && rm -f "$RUN/postgres.started"; fi
      ;;
    kafka) start_kafka ;;
    s3proxy) start_s3proxy ;;
    *) start_instance "$1" ;;
  esac
}

# Waits until a service instance is ready (its management port's /q/health/ready); returns 1 after saying why not.
component_await() { # name [deadline in $SECONDS]
  component_known "$1"
  [ "$(component_kind "$1")" = service ] || return 0
  await_ready "$1" $(($(component_port "$1") + 1100)) "${2:-$((SECONDS + READY_TIMEOUT))}"
}

# Stops NAME gracefully (TERM, then KILL after STOP_TIMEOUT), by its PID file; PostgreSQL with pg_ctlcluster (fast
# shutdown: sessions are ended), for the postgres-outage scenario.
component_stop() {
  component_known "$1"
  if [ "$1" = postgres ]; then stop_postgres; else stop_process "$1"; fi
}

# Sends a signal (default KILL) to NAME, e.g. to crash a render worker mid-render. Returns 1 when it does not run.
component_kill() { component_known "$1" && signal_process "$1" "${2:-KILL}"; }

component_restart() { # name
  component_stop "$1"
  component_start "$1"
  component_await "$1"
}
