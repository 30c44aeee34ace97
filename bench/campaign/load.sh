#!/usr/bin/env bash
# A campaign load through the running stack (issue 38: what campaign-service holds in memory while it works, measured
# by `bench/memory/native.sh campaign bench/campaign/load.sh`): a vendor of its own is onboarded, schedules COUNT
# campaigns whose windows open WINDOW seconds after each is scheduled and close WINDOW seconds later, and waits until
# the last has ended: 2 x COUNT transitions fired by the service's timer, each with its event through the outbox.
# Prints the time to schedule them and to the last ENDED.
# Usage: bench/campaign/load.sh [COUNT=1000] [WINDOW=20] [CONCURRENCY=8]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
COUNT="${1:-1000}"
WINDOW="${2:-20}"
CONCURRENCY="${3:-8}"
# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack campaign

work="$(mktemp -d)"
trap 'bench_vendor_remove; rm -rf "$work"; release_stack' EXIT
salt="$(date +%s)"
bench_vendor "bench-campaign-$salt"
token="$BENCH_TOKEN"

echo "campaign load, $(date -u +%FT%TZ), $COUNT campaigns, windows of ${WINDOW} s, commit $(git rev-parse --short HEAD)"
started="$(date +%s.%N)"
# CONCURRENCY at a time; a call the gateway's budget refuses (429) is sent again a second later
seq 1 "$COUNT" | xargs -P "$CONCURRENCY" -I{} sh -c '
  start="$(date -u -d "+$3 seconds" +%FT%TZ)"
  end="$(date -u -d "+$(($3 * 2)) seconds" +%FT%TZ)"
  until code="$(curl -s -o /dev/null -w "%{http_code}" -X POST "$0/campaigns/$2-{}/schedule" \
    -H "Authorization: Bearer $1" -H "Content-Type: application/json" \
    -d "{\"start_time\":\"$start\",\"end_time\":\"$end\"}")" && [ "$code" != 429 ]; do sleep 1; done
  [ "$code" = 200 ] || echo "POST /campaigns/$2-{}/schedule: $code" >&2' \
  "$PMEDIA_GATEWAY_URL" "$token" "bench-$salt" "$WINDOW"
scheduled="$(echo "$(date +%s.%N) - $started" | bc)"
deadline=$(($(date +%s) + 2 * WINDOW + 300))
status=""
while [ "$status" != ENDED ] && [ "$(date +%s)" -lt "$deadline" ]; do
  sleep 1
  # campaign COUNT is among the last CONCURRENCY scheduled: the last to end, but for a second or so
  status="$(field "$(curl -s "$PMEDIA_GATEWAY_URL/campaigns/bench-$salt-$COUNT/schedule" -H "Authorization: Bearer $token")" status)"
done
echo "scheduled in $scheduled s; the last campaign $status $(echo "$(date +%s.%N) - $started" | bc) s after the first schedule"
[ "$status" = ENDED ]
