#!/usr/bin/env bash
# Render benchmark: the demo template through the engine vs. the bare ffmpeg command it generates.
# Usage: bench/render/run.sh [runs] [template.json]     (default: 7 runs of deploy/local/templates/greeting.json)
#        bench/render/run.sh features [runs]            (issue 14: renditions, speech, previews; default 5 runs)
# Without arguments both run.
# Needs ffmpeg, ffprobe and fonts-dejavu-core; first builds media-service and the modules it uses (installed into the
# local Maven repository, so that the classpath below resolves on a fresh machine too).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
./mvnw -B -q -pl media-service -am install -DskipTests -Dquarkus.build.skip=true
CLASSPATH_FILE="$(mktemp)"
trap 'rm -f "$CLASSPATH_FILE"' EXIT
./mvnw -B -q -o -pl media-service dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$CLASSPATH_FILE"
bench() { # main class, args...
  local main="$1"
  shift
  java -Xmx512m -Djava.awt.headless=true \
    -cp "media-service/target/classes:media-service/target/test-classes:$(cat "$CLASSPATH_FILE")" \
    "io.pmedia.media.render.$main" "$@"
}
if [ "${1:-}" = features ]; then
  shift
  bench FeatureBench "$@"
elif [ $# -gt 0 ]; then
  bench RenderBench "$@"
else
  bench RenderBench
  bench FeatureBench
fi
