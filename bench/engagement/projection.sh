#!/usr/bin/env bash
# Projection benchmark (issue 37; figures in docs/performance.md), no stack needed: engagement-service's projection
# (service/Projection, as its consumer applies each event) alone, in the module's test JVM over the real test
# database: the page events of an on-view task of ROWS rows (default 100,000), 200 rows an event as batch-service sends
# them, applied one after another. Prints rows per second (io.pmedia.engagement.service.ProjectionBench).
# Usage: bench/engagement/projection.sh [rows]     (PMEDIA_TEST_DB_SUFFIX, PMEDIA_DB_* as for the module's tests)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
ROWS="${1:-100000}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
./mvnw -B -o -pl engagement-service verify -Dtest=ProjectionBench -Dsurefire.failIfNoSpecifiedTests=false -DskipITs \
  -Dformatter.skip -Dimpsort.skip -Djacoco.skip -Dpmedia.bench.rows="$ROWS" >"$log" 2>&1 ||
  { tail -n 40 "$log" >&2; exit 1; }
grep -h "projection:" engagement-service/target/surefire-reports/*ProjectionBench-output.txt 2>/dev/null ||
  grep "projection:" "$log"
