#!/usr/bin/env bash
# Ingestion benchmark, alone (no stack needed): batch-service's own reading code (Jackson CSV, COPY, the task's start in
# one transaction) in a JVM with the service's heap (-Xmx384m, as ./pmedia runs it), on a generated file of N rows
# (default 1,000,000, about 200 MB), into a scratch database pmedia_batch_bench on the local PostgreSQL. Prints rows
# per second and the peak RSS and heap of the process (io.pmedia.batch.IngestionBench; docs/performance.md).
# With links (issue 37), the task is rendered on view and its output pass follows (OutputPass, as the service writes
# the file: a share link a row, the rows' pages into the outbox 200 rows an event): rows per second, the events' size.
# Usage: bench/batch/ingest.sh [rows] [links]      (PMEDIA_DB_HOST/PORT/USER/PASSWORD as for ./pmedia; default
# 127.0.0.1:5432, pmedia/pmedia)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
ROWS="${1:-1000000}"
MODE="${2:-}"
CLASSPATH_FILE="$(mktemp)"
trap 'rm -f "$CLASSPATH_FILE"' EXIT
# Compiled in the reactor (nothing installed into the local repository): the classpath names the modules' classes.
./mvnw -B -q -o -pl batch-service -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$CLASSPATH_FILE" -Dformatter.skip -Dimpsort.skip >/dev/null
CP="batch-service/target/classes:batch-service/target/test-classes"
for module in platform-common platform-events platform-storage; do CP="$CP:$module/target/classes"; done
exec java -Xms64m -Xmx384m -XX:+UseSerialGC -cp "$CP:$(cat "$CLASSPATH_FILE")" io.pmedia.batch.IngestionBench "$ROWS" ${MODE:+"$MODE"}
