# shellcheck shell=bash
# Sourced first by ./pmedia: where everything lives, the settings every job reads, and how ./pmedia talks (output,
# errors that name their cause). Needs ROOT, the repository root.
# shellcheck disable=SC2034 # the settings here are read by the other files of scripts/lib/

: "${ROOT:?ROOT (the repository root) must be set before sourcing scripts/lib/common.sh}"

# --- where runtime files live: .pmedia/ (git-ignored) -------------------------------------------------------------
STATE="$ROOT/.pmedia"
RUN="$STATE/run"     # PID files, the up/down lock
LOGS="$STATE/logs"   # one log per component
LIB="$STATE/lib"     # jars fetched from Maven Central
KEYS="$STATE/keys"   # dev keys (mode 600)
APPS="$STATE/app"    # the copy of each service's build that runs
WORK="$STATE/work"   # each instance's scratch directory
ENV_FILE="$STATE/local.env"

# --- versions: the root pom is the one place they are written ---------------------------------------------------
pom_property() { sed -n "s:.*<$1>\([^<]*\)</$1>.*:\1:p" "$ROOT/pom.xml" | head -n 1; }
KAFKA_VERSION="$(pom_property kafka.version)"
S3PROXY_VERSION="$(pom_property s3proxy.version)"
SLF4J_VERSION="2.0.17"
KAFKA_LIB="$LIB/kafka"
S3PROXY_JAR="$LIB/s3proxy-$S3PROXY_VERSION.jar"
ZIPKIN_VERSION="$(pom_property zipkin-server.version)"
ZIPKIN_JAR="$LIB/zipkin-server-$ZIPKIN_VERSION.jar"

# --- the local stack's addresses and settings (docs/local-stack.md, docs/configuration.md) ------------------------
DB_HOST="${PMEDIA_DB_HOST:-127.0.0.1}"
DB_PORT="${PMEDIA_DB_PORT:-5432}"
DB_USER="${PMEDIA_DB_USER:-pmedia}"
DB_PASSWORD="${PMEDIA_DB_PASSWORD:-pmedia}"
DATABASES=(pmedia_gateway pmedia_media pmedia_notifier pmedia_campaign pmedia_batch pmedia_vton pmedia_engagement)

HTTP_HOST="${PMEDIA_HTTP_HOST:-127.0.0.1}"
GATEWAY_URL="http://127.0.0.1:8080"
GATEWAY_HTTPS_URL="https://127.0.0.1:8443"
KAFKA_BOOTSTRAP="127.0.0.1:9092"
# Kafka with authentication and ACLs as in the cluster (PMEDIA_KAFKA_ACLS=1 ./pmedia up; docs/local-stack.md, "Kafka
# with ACLs"): the mode `up` chose is kept in KAFKA_MODE_FILE until `down`, so components started later (start,
# restart, a fault scenario) join the stack as it runs. Each principal's client configuration is in KAFKA_KEYS; the
# users, their ACLs and the topics come from the manifests of the cluster.
KAFKA_MODE_FILE="$RUN/kafka-acls"
KAFKA_KEYS="$KEYS/kafka"
KAFKA_MANIFESTS="$ROOT/deploy/k8s/base"
KAFKA_CLIENTS="$STATE/kafka/clients" # SERVICE ROLE KAFKAUSER per line (scripts/KafkaUsers.java credentials)
S3_PORT=9000
S3_ENDPOINT="http://127.0.0.1:$S3_PORT"
S3_BUCKET="pmedia"
S3_REGION="us-east-1"
# Tracing (docs/operations.md, "Traces"): PMEDIA_TRACING=1 ./pmedia up starts a Zipkin server and the services send it
# their spans; services started while it runs (restart, start) trace too.
TRACING="${PMEDIA_TRACING:-0}"
ZIPKIN_PORT=9411
ZIPKIN_URL="http://127.0.0.1:$ZIPKIN_PORT"
JWT_KEY_ID="dev-1"

# Seconds to wait for a component to become ready, and for one to stop after TERM before it is killed.
READY_TIMEOUT="${PMEDIA_READY_TIMEOUT:-180}"
STOP_TIMEOUT=30

# --- output -------------------------------------------------------------------------------------------------------
if [ -t 2 ]; then
  C_INFO=$'\033[1;34m' C_WARN=$'\033[1;33m' C_ERR=$'\033[1;31m' C_OFF=$'\033[0m'
else
  C_INFO='' C_WARN='' C_ERR='' C_OFF=''
fi
info() { printf '%s==>%s %s\n' "$C_INFO" "$C_OFF" "$*" >&2; }
warn() { printf '%swarning:%s %s\n' "$C_WARN" "$C_OFF" "$*" >&2; }
die() {
  printf '%serror:%s %s\n' "$C_ERR" "$C_OFF" "$*" >&2
  exit 1
}

# Why a component died, from its log, indented: its last ERROR lines when it logged any, else the end of the log.
log_tail() { # file
  [ -f "$1" ] || return 0
  if grep -qE '(^|[] ])(ERROR|FATAL)[] :]' "$1"; then
    grep -E '(^|[] ])(ERROR|FATAL)[] :]' "$1" | tail -n 3 | cut -c1-400 | sed 's/^/    | /' >&2
  else
    tail -n 15 "$1" | cut -c1-400 | sed 's/^/    | /' >&2
  fi
  return 0
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# N random bytes as lower-case hex (tokens, S3 credentials). head reads a fixed count, so nothing in the pipe is cut
# short (no SIGPIPE under pipefail).
random_hex() { head -c "$1" /dev/urandom | od -An -v -tx1 | tr -d ' \n'; }

# A top-level field of a JSON object: jq when it is installed, else a sed that is enough for our services' compact
# answers (string values without escaped quotes: ids, base64 secrets).
json_field() { # json field
  local value
  if command -v jq >/dev/null && value="$(printf '%s' "$1" | jq -r --arg k "$2" '.[$k] // empty' 2>/dev/null)"; then
    printf '%s' "$value"
    return
  fi
  printf '%s' "$1" | tr -d '\n' | sed -n "s/.*\"$2\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p" | head -n 1
}

http() { # curl args... -> "BODY\nCODE"
  curl -s --max-time 30 -w '\n%{http_code}' "$@" || printf '\n000'
}
