# shellcheck shell=bash
# ./pmedia sdk [DIR]: the SDKs as a vendor installs them, written into DIR (default .pmedia/sdk/): the npm tarball of
# @pmedia/client (built with npm alone from the committed generated code), the Java SDK's jar with its standalone
# POM (each taken from the last build's target/ when it is newer than every source it is built from), and the Python
# wheel of pmedia-client (built with pip from the committed generated code) (docs/sdks.md).
# scripts/sdk-install-test.sh installs each into a fresh project outside the repository.

SDK_DIR_DEFAULT="$STATE/sdk"

# The version of the Java SDK, from its own POM (it has no parent: the first <version> is its own).
sdk_java_version() { sed -n 's:^  <version>\([^<]*\)</version>.*:\1:p' "$ROOT/sdk/java/pom.xml" | head -n 1; }

# sdk_current BUILT PATH...: BUILT exists and no file under the PATHs is newer (outputs and the examples aside): the
# build of the Maven stage (./mvnw verify packs both SDKs into their target/) is the same artifact, reused.
sdk_current() {
  local built="$1" path
  shift
  [ -f "$built" ] || return 1
  for path in "$@"; do
    [ -z "$(find "$path" \( -name node_modules -o -name target -o -name dist -o -name examples \) -prune -o \
      -type f -newer "$built" -print -quit)" ] || return 1
  done
}

sdk_typescript() { # dir
  local dir="$1" log="$LOGS/sdk-typescript.log" packed
  packed="$(ls "$ROOT"/sdk/typescript/target/pmedia-client-*.tgz 2>/dev/null | head -n 1)"
  if [ -n "$packed" ] && sdk_current "$packed" "$ROOT/sdk/typescript"; then
    info "@pmedia/client: $(basename "$packed") of the last build, newer than every source of sdk/typescript"
    cp "$packed" "$dir/"
    return 0
  fi
  command -v npm >/dev/null || apt_install nodejs npm
  info "@pmedia/client: npm ci && npm pack in sdk/typescript (log: $log)"
  (cd "$ROOT/sdk/typescript" && npm ci --no-audit --no-fund && npm pack --pack-destination "$dir") >"$log" 2>&1 ||
    die "packing @pmedia/client failed (see $log)"
}

sdk_java() { # dir
  local dir="$1" log="$LOGS/sdk-java.log" version
  version="$(sdk_java_version)"
  if sdk_current "$ROOT/sdk/java/target/pmedia-client-$version.jar" "$ROOT/sdk/java" "$ROOT/docs/openapi.yaml"; then
    info "io.pmedia:pmedia-client $version: the jar of the last build, newer than every source of sdk/java and the contract"
  else
    info "io.pmedia:pmedia-client $version: ./mvnw -pl sdk/java package (log: $log)"
    "$ROOT/mvnw" -B -q -f "$ROOT/pom.xml" -pl sdk/java package -DskipTests >"$log" 2>&1 ||
      die "building the Java SDK failed (see $log)"
  fi
  cp "$ROOT/sdk/java/target/pmedia-client-$version.jar" "$dir/"
  cp "$ROOT/sdk/java/pom.xml" "$dir/pmedia-client-$version.pom"
}

# pip talks to the index of the machine's pip configuration; a primary index that does not answer fails fast.
PIP_QUICK=(--retries 0 --timeout 15 --disable-pip-version-check --no-input)

sdk_python() { # dir
  local dir="$1" log="$LOGS/sdk-python.log" venv="$STATE/sdk-build-venv"
  command -v python3 >/dev/null || apt_install python3 python3-venv
  info "pmedia-client (Python): pip wheel of sdk/python (log: $log)"
  {
    [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q "${PIP_QUICK[@]}" setuptools wheel &&
      "$venv/bin/pip" wheel -q "${PIP_QUICK[@]}" --no-deps --no-build-isolation -w "$dir" "$ROOT/sdk/python"
  } >"$log" 2>&1 || die "building the Python wheel failed (see $log)"
  rm -rf "$ROOT/sdk/python/build" "$ROOT"/sdk/python/src/*.egg-info
}

cmd_sdk() { # [dir]
  local dir="${1:-$SDK_DIR_DEFAULT}"
  ensure_dirs
  ensure_jdk
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  rm -f "$dir"/pmedia-client-* "$dir"/pmedia_client-*
  sdk_typescript "$dir"
  sdk_java "$dir"
  sdk_python "$dir"
  info "the SDKs, ready to install (sdk/typescript/README.md, sdk/java/README.md, sdk/python/README.md):"
  (cd "$dir" && ls -1 pmedia-client-* pmedia_client-*) | sed "s:^:  $dir/:"
}
