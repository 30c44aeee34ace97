#!/usr/bin/env bash
# Webhook delivery benchmark: status events through Kafka to the packaged notifier-service, which pushes them to a
# local receiver answering 202 at once. Prints deliveries per second and event-to-receipt latency (docs/performance.md).
# Usage: bench/webhooks/run.sh [events] [paced-rate-per-second]      (default: 10000 events, paced at 1000/s)
# Needs PostgreSQL (PMEDIA_DB_*; ./pmedia up or ./pmedia test sets it up). Starts its own Kafka broker and notifier
# (on port ${PMEDIA_BENCH_PORT:-18085}), so it never touches a running ./pmedia up stack.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
JAR="notifier-service/target/quarkus-app/quarkus-run.jar"
if [ ! -f "$JAR" ] || [ -n "$(find notifier-service/src notifier-service/pom.xml -newer "$JAR" -type f -print -quit)" ]; then
  ./mvnw -B -q -pl notifier-service package -DskipTests -am
fi
# The harness depends on platform-testing (and its parent): installed into the local Maven repository, so that it
# resolves on a fresh machine too.
./mvnw -B -q -pl platform-testing -am install -DskipTests
CLASSPATH_FILE="$(mktemp)"
trap 'rm -f "$CLASSPATH_FILE"' EXIT
./mvnw -B -q -f bench/webhooks/pom.xml compile dependency:build-classpath -Dmdep.outputFile="$CLASSPATH_FILE"
exec java -Xmx768m -XX:+UseSerialGC -Dsun.net.httpserver.nodelay=true \
  -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "bench/webhooks/target/classes:$(cat "$CLASSPATH_FILE")" \
  io.pmedia.bench.webhooks.WebhookBench "$ROOT/$JAR" "$@"
