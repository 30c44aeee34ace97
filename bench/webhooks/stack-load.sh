#!/usr/bin/env bash
# A webhook load through the running stack's notifier-service (issue 38: what it holds in memory while it works,
# measured by `bench/memory/native.sh notifier bench/webhooks/stack-load.sh`; the delivery benchmark with its own broker
# and notifier is run.sh): a vendor of its own is onboarded with a webhook to a local receiver answering 202, and sends
# COUNT `POST /webhooks/test`, CONCURRENCY at a time: each one a signed push made, sent and recorded with its attempt by
# the notifier while the call waits. Prints the pushes received and the time they took.
# Usage: bench/webhooks/stack-load.sh [COUNT=3000] [CONCURRENCY=8]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
COUNT="${1:-3000}"
CONCURRENCY="${2:-8}"
PORT="${PMEDIA_BENCH_RECEIVER_PORT:-18099}"
# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack notifier

work="$(mktemp -d)"
receiver=""
trap 'bench_vendor_remove; [ -z "$receiver" ] || kill "$receiver" 2>/dev/null || true; rm -rf "$work"; release_stack' EXIT
node -e '
const fs = require("fs");
let n = 0;
// counted before the answer: POST /webhooks/test of the notifier returns only after the answer, so the count below
// already holds every push the calls made
require("http").createServer((q, s) => q.resume().on("end", () => {
  fs.writeFileSync(process.argv[2], String(++n));
  s.writeHead(202).end();
})).listen(Number(process.argv[1]), "127.0.0.1");' "$PORT" "$work/pushes" &
receiver=$!
echo 0 >"$work/pushes"

bench_vendor "bench-webhooks-$(date +%s)" "http://127.0.0.1:$PORT/hook"
token="$BENCH_TOKEN"

echo "webhook load, $(date -u +%FT%TZ), $COUNT test pushes, $CONCURRENCY at a time, commit $(git rev-parse --short HEAD)"
started="$(date +%s.%N)"
# a call the gateway's budget refuses (429) is sent again after its Retry-After
seq 1 "$COUNT" | xargs -P "$CONCURRENCY" -I{} sh -c '
  until code="$(curl -s -o /dev/null -w "%{http_code}" -X POST "$0/webhooks/test" -H "Authorization: Bearer $1")" \
    && [ "$code" != 429 ]; do sleep 1; done
  [ "$code" = 200 ] || echo "POST /webhooks/test: $code" >&2' "$PMEDIA_GATEWAY_URL" "$token"
echo "pushes received $(cat "$work/pushes") of $COUNT in $(echo "$(date +%s.%N) - $started" | bc) s"
[ "$(cat "$work/pushes")" -ge "$COUNT" ]
