#!/usr/bin/env bash
# Render benchmark: the demo template through the engine vs. the bare ffmpeg command it generates.
# Usage: bench/render/run.sh [runs] [template.json]     (default: 7 runs of deploy/local/templates/greeting.json)
#        bench/render/run.sh features [runs]            (issue 14: renditions, speech, previews; default 5 runs)
#        bench/render/run.sh cache [runs] [samples]     (issues 25, 35: the chunk cache, product-tour, brand-story,
#                                                        product-launch and greeting cached vs full; default 7
#                                                        runs, all samples; samples comma-separated)
#        bench/render/run.sh stream [requests] [players] (issues 15, 25: time to the first playable segment through
#                                                        the running stack, default 50 requests, and to the first
#                                                        frame in hls.js in Chromium, default 10; brand-story,
#                                                        product-tour, greeting)
# Without arguments all run (stream only when the stack is up).
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
stream() { # requests
  # shellcheck source=scripts/lib/stack.sh
  . scripts/lib/stack.sh
  use_stack media >/dev/null
  trap 'release_stack >/dev/null; rm -f "$CLASSPATH_FILE"' EXIT
  curl -s -X POST "$PMEDIA_GATEWAY_URL/admin/templates" -H "Authorization: Bearer $PMEDIA_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' --data-binary @deploy/local/templates/brand-story.json >/dev/null
  local token
  token="$(demo_token)"
  [ -d build/node/node_modules/playwright-core ] || npm ci --prefix build/node --no-audit --no-fund >/dev/null
  command -v chromium >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
  local template
  for template in brand-story product-tour greeting; do
    java bench/render/Stream.java "$PMEDIA_GATEWAY_URL" "$token" "${1:-50}" "$template"
    node bench/render/first-frame.mjs "$PMEDIA_GATEWAY_URL" "$token" "${2:-10}" "$template" |
      sed 's/^/first frame in hls.js from POST \/media\/demo: /'
  done
}
if [ "${1:-}" = features ]; then
  shift
  bench FeatureBench "$@"
elif [ "${1:-}" = cache ]; then
  shift
  bench CacheBench "$@"
elif [ "${1:-}" = stream ]; then
  shift
  stream "$@"
elif [ $# -gt 0 ]; then
  bench RenderBench "$@"
else
  bench RenderBench
  bench FeatureBench
  bench CacheBench
  if ./pmedia status 2>/dev/null | grep -q "^media *up"; then stream 50; fi
fi
