#!/usr/bin/env bash
# Graphics benchmark (issue 35): a 10 s 720p template with animated text (per letter and word), keyframed shapes and
# gradients, against the same template with its text and shapes still, through the whole render (the graphics
# engine's frames piped into FFmpeg, H.264); medians of alternating runs and their ratio.
# Usage: bench/graphics/run.sh [runs]     (default 5)
# Needs ffmpeg, the Noto fonts and the graphics engine's native dependencies (scripts/lib/provision.sh installs them);
# first builds platform-graphics and media-service into the local Maven repository so that the classpath resolves.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/lib/media-java.sh
. scripts/lib/media-java.sh
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(date -u +%F); commit $(git rev-parse --short HEAD)"
media_java 768m io.pmedia.media.render.GraphicsBench "${1:-5}"
