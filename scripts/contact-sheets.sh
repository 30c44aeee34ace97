#!/usr/bin/env bash
# Contact sheets of the sample templates (docs/samples/*.png): every file of deploy/local/templates rendered by the
# engine as the worker renders it, eight frames of each tiled, and the name card in eight scripts. Look at them
# before a render feature is done (docs/developing.md). Needs what `./pmedia test` provisions (FFmpeg, espeak-ng,
# the Noto fonts, the graphics engine's native dependencies); no stack.
# Usage: scripts/contact-sheets.sh [OUT_DIR]     (default docs/samples)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/lib/media-java.sh
. scripts/lib/media-java.sh
media_java 768m io.pmedia.media.render.ContactSheets deploy/local/templates "${1:-docs/samples}"
