#!/usr/bin/env bash
# Lottie benchmark (issue 36): a 10 s 720p template with a full-frame Lottie layer against (1) the same template
# without it, (2) the bare pipeline for the same Lottie (Skottie frames piped to x264 with the same settings) and
# (3) lottie-web's SVG renderer captured in Chromium and encoded the same way (what puppeteer-lottie does); medians of
# alternating runs and the ratios. Usage: bench/lottie/run.sh [runs] [motion]   (default 5, confetti-burst)
# Needs ffmpeg, chromium, the Noto fonts and build/node's npm tools (./pmedia test installs them).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/lib/media-java.sh
. scripts/lib/media-java.sh
runs="${1:-5}"
motion="${2:-confetti-burst}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(date -u +%F); commit $(git rev-parse --short HEAD)"
out="$(mktemp)"
media_java 1g io.pmedia.media.render.LottieBench "$runs" "$motion" | tee "$out"
ours="$(sed -n 's/^ALONE_SECONDS=//p' "$out")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp" "$out"' EXIT
times=()
for i in $(seq 1 "$runs"); do
  times+=("$(node bench/lottie/lottie-web.mjs "deploy/local/motions/$motion.json" 1280 720 10 30 "$tmp/web.mp4")")
done
median="$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')"
echo "  lottie-web (SVG) in Chromium, screenshots to x264: median ${median} s  [${times[*]}]"
awk -v web="$median" -v ours="$ours" 'BEGIN { printf "  (3) lottie-web / our Lottie alone: %.1fx faster (goal at least 8)\n", web / ours }'
