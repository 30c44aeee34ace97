# shellcheck shell=bash
# PostgreSQL: the server on PMEDIA_DB_HOST:PMEDIA_DB_PORT (this machine's cluster started, or installed, when
# needed), the role and the databases. `down` stops the cluster only when `up` started it (.pmedia/run/postgres.started).

pg_local() { case "$DB_HOST" in 127.0.0.1 | localhost | ::1) return 0 ;; *) return 1 ;; esac; }

pg_ready() {
  if command -v pg_isready >/dev/null; then
    pg_isready -q -t 3 -h "$DB_HOST" -p "$DB_PORT" >/dev/null 2>&1
  else
    port_open "$DB_PORT"
  fi
}

# "version name status datadir" of this machine's cluster configured on $DB_PORT, if any.
pg_cluster() {
  command -v pg_lsclusters >/dev/null || return 0
  pg_lsclusters -h 2>/dev/null | awk -v port="$DB_PORT" '$3 == port { print $1, $2, $4, $6; exit }'
}

# psql as the database superuser: through the unix socket as the postgres OS user when we are root (works whatever
# pg_hba.conf says about TCP), else over TCP as postgres (servers with trust auth).
psql_admin() {
  if is_root && id postgres >/dev/null 2>&1; then
    (cd / && runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$DB_PORT" "$@")
  else
    psql -X -q -v ON_ERROR_STOP=1 -h "$DB_HOST" -p "$DB_PORT" -U postgres "$@"
  fi
}

ensure_postgres_server() {
  pg_ready && return 0
  pg_local || die "PostgreSQL at $DB_HOST:$DB_PORT does not answer (PMEDIA_DB_HOST is not this machine, so pmedia cannot start it)"
  local version name status _
  if [ -z "$(pg_cluster)" ]; then
    if ! command -v pg_lsclusters >/dev/null || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
      apt_install postgresql # Debian's package creates a cluster on 5432 and may start it
      pg_ready && return 0
    fi
  fi
  read -r version name status _ <<<"$(pg_cluster)"
  [ -n "${version:-}" ] ||
    die "no PostgreSQL cluster on port $DB_PORT here (pg_lsclusters lists: $(pg_lsclusters -h 2>/dev/null | awk '{print $1"/"$2":"$3}' | xargs)); create one or set PMEDIA_DB_PORT"
  [ "$status" = online ] &&
    die "PostgreSQL $version/$name is running but does not answer on $DB_HOST:$DB_PORT (check listen_addresses in /etc/postgresql/$version/$name/postgresql.conf)"
  is_root || die "PostgreSQL $version/$name is stopped and only root can start it: sudo pg_ctlcluster $version $name start"
  info "starting PostgreSQL $version/$name on port $DB_PORT"
  pg_ctlcluster --skip-systemctl-redirect "$version" "$name" start >>"$LOGS/postgres.log" 2>&1 ||
    die "cannot start PostgreSQL $version/$name (see $LOGS/postgres.log and /var/log/postgresql/postgresql-$version-$name.log)"
  echo "$version $name" >"$RUN/postgres.started"
  local deadline=$((SECONDS + 60))
  until pg_ready; do
    [ "$SECONDS" -lt "$deadline" ] || die "PostgreSQL $version/$name started but does not answer on $DB_HOST:$DB_PORT"
    sleep 0.3
  done
}

# The stack's pools (seven services, the render workers, the tests' own) need more than Debian's default 100
# connections at their maxima (docs/operations.md has the cluster's budget): a local cluster below
# PMEDIA_DB_MIN_CONNECTIONS (300) is raised once, with ALTER SYSTEM and a restart, when this machine may restart it.
ensure_pg_connections() {
  pg_local || return 0
  local want="${PMEDIA_DB_MIN_CONNECTIONS:-300}" have version name _
  have="$(psql_admin -d postgres -tA -c 'SHOW max_connections' 2>/dev/null)" || return 0
  [ -n "$have" ] && [ "$have" -lt "$want" ] || return 0
  read -r version name _ <<<"$(pg_cluster)"
  if ! is_root || [ -z "${version:-}" ]; then
    warn "PostgreSQL allows $have connections, fewer than the $want the stack may use at once: raise max_connections"
    return 0
  fi
  info "raising PostgreSQL $version/$name's max_connections from $have to $want (ALTER SYSTEM, restart)"
  psql_admin -d postgres -c "ALTER SYSTEM SET max_connections = $want" >/dev/null ||
    die "cannot set max_connections (as the postgres superuser)"
  pg_ctlcluster --skip-systemctl-redirect "$version" "$name" restart >>"$LOGS/postgres.log" 2>&1 ||
    die "cannot restart PostgreSQL $version/$name (see $LOGS/postgres.log)"
  local deadline=$((SECONDS + 60))
  until pg_ready; do
    [ "$SECONDS" -lt "$deadline" ] || die "PostgreSQL $version/$name restarted but does not answer on $DB_HOST:$DB_PORT"
    sleep 0.3
  done
}

# The role (password login, so scram over TCP works) and the given databases, owned by it.
ensure_postgres() { # databases...
  command -v psql >/dev/null || apt_install postgresql-client
  ensure_postgres_server
  [[ "$DB_USER" =~ ^[a-z_][a-z0-9_]*$ ]] || die "PMEDIA_DB_USER '$DB_USER' is not a plain lower-case identifier"
  if pg_local; then
    local password="${DB_PASSWORD//\'/\'\'}" db owner
    psql_admin -d postgres >/dev/null <<SQL || die "cannot create the PostgreSQL role $DB_USER (as the postgres superuser)"
SELECT format('CREATE ROLE %I', '$DB_USER') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER')
\gexec
ALTER ROLE $DB_USER WITH LOGIN CREATEDB PASSWORD '$password';
SQL
    for db in "$@"; do
      owner="$(psql_admin -d postgres -tA -c "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$db'")" ||
        die "cannot query PostgreSQL's databases"
      if [ -z "$owner" ]; then
        psql_admin -d postgres -c "CREATE DATABASE $db OWNER $DB_USER" >/dev/null || die "cannot create database $db"
      elif [ "$owner" != "$DB_USER" ]; then
        psql_admin -d postgres -c "ALTER DATABASE $db OWNER TO $DB_USER" >/dev/null || die "cannot give database $db to $DB_USER"
      fi
    done
  fi
  ensure_pg_connections
  local db
  for db in "$@"; do
    PGPASSWORD="$DB_PASSWORD" PGCONNECT_TIMEOUT=5 psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$db" \
      -c 'SELECT 1' >/dev/null 2>>"$LOGS/postgres.log" ||
      die "cannot log in to database $db at $DB_HOST:$DB_PORT as $DB_USER (see $LOGS/postgres.log)"
  done
}


# Stops this machine's cluster on PMEDIA_DB_PORT whoever started it (./pmedia stop postgres: the postgres-outage
# fault scenario); `start postgres` brings it back.
stop_postgres() {
  pg_local || die "PostgreSQL at $DB_HOST:$DB_PORT is not on this machine: pmedia cannot stop it"
  is_root || die "only root can stop PostgreSQL"
  local version name _
  read -r version name _ <<<"$(pg_cluster)"
  [ -n "${version:-}" ] || die "no PostgreSQL cluster on port $DB_PORT here"
  info "stopping PostgreSQL $version/$name"
  pg_ctlcluster --skip-systemctl-redirect "$version" "$name" stop -m fast >>"$LOGS/postgres.log" 2>&1 ||
    die "could not stop PostgreSQL $version/$name (see $LOGS/postgres.log)"
}

# Stops the cluster when `up` started it; a server `up` found running is never stopped.
stop_postgres_if_started() {
  [ -f "$RUN/postgres.started" ] || return 0
  local version name
  read -r version name <"$RUN/postgres.started"
  info "stopping PostgreSQL $version/$name (./pmedia up started it)"
  pg_ctlcluster --skip-systemctl-redirect "$version" "$name" stop >>"$LOGS/postgres.log" 2>&1 ||
    warn "could not stop PostgreSQL $version/$name (see $LOGS/postgres.log)"
  rm -f "$RUN/postgres.started"
}

postgres_status_line() {
  local state=down pid=- note="this machine's server" version name _ datadir
  pg_ready && state=up
  if [ -f "$RUN/postgres.started" ]; then note="started by ./pmedia up"; fi
  pg_local || note="remote: $DB_HOST"
  read -r version name _ datadir <<<"$(pg_cluster)"
  if [ "$state" = up ] && [ -n "${datadir:-}" ] && [ -r "$datadir/postmaster.pid" ]; then
    pid="$(head -n 1 "$datadir/postmaster.pid")"
    note="$note, cluster $version/$name"
  fi
  printf '%-15s %-9s port %-5s pid %-8s (%s)\n' postgres "$state" "$DB_PORT" "$pid" "$note"
}
