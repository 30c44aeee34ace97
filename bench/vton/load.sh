#!/usr/bin/env bash
# A try-on load through the running stack (issue 38: what vton-service holds in memory while it works, measured by
# `bench/memory/native.sh vton bench/vton/load.sh`): COUNT requests of the demo vendor, each a model photo of SIZE and
# one garment photo, uploaded once into the vendor's namespace (as a vendor does), all sent at once; the service works
# on them `pmedia.vton.concurrency` (2) at a time. Prints how many ended SUCCESS and FAILURE, and the time to the last.
# Usage: bench/vton/load.sh [COUNT=40] [SIZE=2048x3072]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
COUNT="${1:-40}"
SIZE="${2:-2048x3072}"
# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack vton

work="$(mktemp -d)"
trap 'rm -rf "$work"; release_stack' EXIT
# photos with detail everywhere (FFmpeg's test pattern), so that PNG decoding and compositing do real work
ffmpeg -v error -f lavfi -i "testsrc2=size=$SIZE:rate=1" -frames:v 1 "$work/model.png"
ffmpeg -v error -f lavfi -i "mandelbrot=size=1536x1536:rate=1" -frames:v 1 "$work/garment.png"
token="$(demo_token)"
[ -n "$token" ] || { echo "no token for the demo vendor (./pmedia up onboards it)" >&2; exit 1; }
model="$PMEDIA_S3_ENDPOINT/$(stack_upload "$token" "$work/model.png" model.png | sed 's#^s3://##')"
garment="$PMEDIA_S3_ENDPOINT/$(stack_upload "$token" "$work/garment.png" garment.png | sed 's#^s3://##')"

echo "vton load, $(date -u +%FT%TZ), $COUNT requests, model $SIZE, garment 1536x1536, commit $(git rev-parse --short HEAD)"
started="$(date +%s.%N)"
for i in $(seq 1 "$COUNT"); do
  answer="$(curl -s -X POST "$PMEDIA_GATEWAY_URL/vton/request" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' \
    -d "{\"user-id\":\"bench-$i\",\"usecase-id\":\"bench-memory\",\"model-image\":\"$model\",\"garment-image\":[\"$garment\"]}")"
  id="$(field "$answer" request-id)"
  [ -n "$id" ] || { echo "POST /vton/request: $answer" >&2; exit 1; }
  echo "$id" >>"$work/ids"
done

success=0
failure=0
while [ -s "$work/ids" ]; do
  : >"$work/open"
  while read -r id; do
    status="$(field "$(curl -s "$PMEDIA_GATEWAY_URL/vton/status/$id" -H "Authorization: Bearer $token")" status)"
    case "$status" in
      SUCCESS) success=$((success + 1)) ;;
      FAILURE) failure=$((failure + 1)) ;;
      *) echo "$id" >>"$work/open" ;;
    esac
  done <"$work/ids"
  mv "$work/open" "$work/ids"
  [ -s "$work/ids" ] && sleep 2
done
echo "SUCCESS $success, FAILURE $failure, last final after $(echo "$(date +%s.%N) - $started" | bc) s"
