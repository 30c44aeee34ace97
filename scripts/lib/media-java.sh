# shellcheck shell=bash
# Runs a main class of media-service's test sources (a benchmark, the contact sheets) outside Maven and Quarkus:
# builds media-service and the modules it uses into the local Maven repository (so that the classpath resolves on a
# fresh machine too), then java with the test classpath. Sourced with ROOT as the working directory.
# Usage: media_java HEAP MAIN_CLASS [ARGS...]     e.g. media_java 768m io.pmedia.media.render.GraphicsBench 5
media_java() {
  local heap="$1" main="$2" classpath
  shift 2
  nice -n 10 ./mvnw -B -q -pl media-service -am install -DskipTests -Dquarkus.build.skip=true
  classpath="$(mktemp)"
  ./mvnw -B -q -o -pl media-service dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$classpath"
  local status=0
  nice -n 10 java "-Xmx$heap" -Djava.awt.headless=true \
    -cp "platform-graphics/target/classes:media-service/target/classes:media-service/target/test-classes:$(cat "$classpath")" \
    "$main" "$@" || status=$?
  rm -f "$classpath"
  return "$status"
}
