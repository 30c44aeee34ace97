#!/usr/bin/env bash
# Batch benchmark: a task of N rows of the demo template (name, offer and an 800x800 photo per row) through the running
# stack, against the bare FFmpeg command of one such render (the one the engine generates) run N times in a row.
# Prints both wall times and their ratio: what the platform adds around FFmpeg for a batch (dispatch, Kafka, fetching
# the photo, uploading, the output file), as a ratio measured in the same run (docs/performance.md).
# Usage: bench/batch/run.sh [rows]      (default 10; starts the stack with ./pmedia up unless it runs)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
ROWS="${1:-10}"

# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack batch >/dev/null
work="$(mktemp -d)"
cleanup() {
  rm -rf "$work"
  release_stack >/dev/null
}
trap cleanup EXIT
GW="$PMEDIA_GATEWAY_URL"
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

# The bare command of one render, and its photo (bench/render keeps them).
PMEDIA_BENCH_KEEP="$work/bare" bench/render/run.sh 1 >/dev/null
photo="$PMEDIA_S3_ENDPOINT/$PMEDIA_S3_BUCKET/bench/photo-$(date +%s%N).png"
curl -sf -T "$work/bare/asset-0" -H 'Content-Type: image/png' "$photo" >/dev/null
input="bench/batch-$(date +%s%N).csv"
{
  echo "user-id,name,offer,image-url"
  for i in $(seq 1 "$ROWS"); do echo "u-$i,Ada $i,20% off your next order,$photo"; done
} >"$work/input.csv"
curl -sf -T "$work/input.csv" "$PMEDIA_S3_ENDPOINT/$PMEDIA_S3_BUCKET/$input" >/dev/null

TOKEN="$(demo_token)"

# CPU seconds (user + system) each component of the stack has used so far; PostgreSQL's backends together.
cpu() {
  local name pid ticks hz
  hz="$(getconf CLK_TCK)"
  for name in media batch gateway kafka s3proxy notifier; do
    pid="$(cat ".pmedia/run/$name.pid" 2>/dev/null || true)"
    ticks=0
    if [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; then
      ticks="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
    fi
    printf '%s %s\n' "$name" "$(calc "$ticks / $hz")"
  done
  ticks="$(for pid in $(pgrep -x postgres 2>/dev/null || true); do awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null; done |
    awk '{ sum += $1 } END { print sum + 0 }')"
  printf 'postgres %s\n' "$(calc "$ticks / $hz")"
}
cpu >"$work/cpu-before"

# Batch, through the gateway: from the create call to COMPLETED.
start="$(now)"
answer="$(curl -s -X POST "$GW/media/task/create" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "{\"campaign-id\":\"bench\",\"template-id\":\"$PMEDIA_DEMO_TEMPLATE_ID\",\"file-path\":\"$PMEDIA_S3_BUCKET/$input\",
       \"row-count\":$ROWS,\"expected-output-duration\":5}")"
task="$(field "$answer" task-id)"
[ -n "$task" ] || { echo "create failed: $answer" >&2; exit 1; }
while :; do
  status="$(curl -s "$GW/media/task/status/$task" -H "Authorization: Bearer $TOKEN")"
  case "$(field "$status" status)" in
    COMPLETED) break ;;
    FAILED) echo "the task failed: $status" >&2; exit 1 ;;
  esac
  sleep 0.2
done
batch="$(calc "$(now) - $start")"
cpu >"$work/cpu-after"
printf '%s' "$status" | grep -q "\"message\":\"$ROWS of $ROWS rows rendered\"" || { echo "not every row rendered: $status" >&2; exit 1; }

# Bare FFmpeg, the same render N times in a row.
start="$(now)"
for _ in $(seq 1 "$ROWS"); do bash "$work/bare/command.sh" >/dev/null 2>&1; done
bare="$(calc "$(now) - $start")"

printf 'batch benchmark, %s, %s (%s cores)\n' "$(date -u +%F)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)"
printf 'rows: %s (10 s 1280x720 each, with name, offer and an 800x800 photo)\n' "$ROWS"
printf 'batch task (create -> COMPLETED):   %6.1f s  (%.2f s per row)\n' "$batch" "$(calc "$batch / $ROWS")"
printf 'bare ffmpeg, %s renders in a row:  %6.1f s  (%.2f s per row)\n' "$ROWS" "$bare" "$(calc "$bare / $ROWS")"
printf 'batch / bare: %.2f\n' "$(calc "$batch / $bare")"
printf 'CPU seconds per row during the batch, besides FFmpeg (media counts its own JVM, not its ffmpeg children):\n'
paste "$work/cpu-before" "$work/cpu-after" | while read -r name before _ after; do
  printf '  %-9s %.3f\n' "$name" "$(calc "($after - $before) / $ROWS")"
done
