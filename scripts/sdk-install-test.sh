#!/usr/bin/env bash
# The SDKs as a vendor installs them: each artifact `./pmedia sdk` wrote goes into a fresh project outside the
# repository, and a small program is built (strict TypeScript under node10, nodenext and bundler resolution; Java 11
# with Maven; Python in a fresh virtual environment, checked with mypy --strict) and run. With PMEDIA_GATEWAY_URL and the demo vendor's credentials set (scripts/e2e.sh, against the
# stack) the programs render a video and catch a NOT_FOUND at the root of the SDK's errors; without, they only load.
# The Java project resolves through a local repository of its own that must end up holding no pmedia-parent and no
# Quarkus or AWS artifact: the SDK's POM stands alone.
# Usage: scripts/sdk-install-test.sh ARTIFACTS_DIR
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
artifacts="$(cd "${1:?usage: scripts/sdk-install-test.sh ARTIFACTS_DIR (./pmedia sdk writes it)}" && pwd)"
fail() {
  printf '\033[1;31mFAIL\033[0m %s\n' "$*" >&2
  exit 1
}
pass() { # (plain when not a terminal: scripts/e2e.sh reads these lines)
  if [ -t 1 ]; then printf '\033[1;32m  ok\033[0m %s\n' "$*"; else printf '  ok %s\n' "$*"; fi
}
work="$(mktemp -d /tmp/pmedia-sdk-install.XXXXXX)"
trap 'rm -rf "$work"' EXIT
case "$work" in "$ROOT"/*) fail "the fresh projects must be outside the repository" ;; esac

# --- TypeScript: npm install of the tarball, strict types under three resolutions, ESM and CJS ----------------------
tarball="$(ls "$artifacts"/pmedia-client-*.tgz 2>/dev/null | head -n 1)"
[ -n "$tarball" ] || fail "no pmedia-client-*.tgz in $artifacts"
ts="$work/typescript"
mkdir -p "$ts"
cp "$ROOT/sdk/install-test/typescript/main.ts" "$ROOT/sdk/install-test/typescript/tsconfig.json" "$ts/"
printf '{ "name": "first-pmedia-program", "private": true, "type": "module" }\n' >"$ts/package.json"
(cd "$ts" && npm install --no-audit --no-fund --prefer-offline "$tarball" standardwebhooks@1.1.1 typescript@5.9.3 \
  @types/node@20.19.25) >"$work/npm.log" 2>&1 || { tail -n 20 "$work/npm.log" >&2; fail "npm install of $(basename "$tarball")"; }
(cd "$ts" && npx tsc -p tsconfig.json) >"$work/tsc.log" 2>&1 || { cat "$work/tsc.log" >&2; fail "tsc --strict (nodenext) on the program"; }
for resolution in "commonjs node10" "esnext bundler"; do
  set -- $resolution
  (cd "$ts" && npx tsc --noEmit --strict --module "$1" --moduleResolution "$2" --target es2022 --lib es2022,dom \
    --types node main.ts) >"$work/tsc.log" 2>&1 ||
    { cat "$work/tsc.log" >&2; fail "tsc --strict --moduleResolution $2 on the program"; }
done
(cd "$ts" && node -e "const m = require('@pmedia/client'); const w = require('@pmedia/client/webhooks');
  if (typeof m.PmediaClient !== 'function' || typeof w.verifyWebhook !== 'function') process.exit(1)") ||
  fail "require('@pmedia/client') (CommonJS)"
ts_out="$(cd "$ts" && node dist/main.js)" || fail "the TypeScript program: $ts_out"
if [ -n "${PMEDIA_GATEWAY_URL:-}" ]; then
  printf '%s' "$ts_out" | grep -q '"status":"SUCCESS"' && printf '%s' "$ts_out" | grep -q '"notFound":"NOT_FOUND"' ||
    fail "the TypeScript program against the stack: $ts_out"
fi
pass "@pmedia/client from $(basename "$tarball") in a fresh npm project: strict types (nodenext, node10, bundler), ESM and CJS; $ts_out"

# --- Java: the jar and its POM into a fresh local repository, a fresh Maven project built and run -------------------
jar="$(ls "$artifacts"/pmedia-client-*.jar 2>/dev/null | head -n 1)"
[ -n "$jar" ] || fail "no pmedia-client-*.jar in $artifacts"
pom="${jar%.jar}.pom"
[ -f "$pom" ] || fail "no POM beside $(basename "$jar")"
version="$(basename "$jar" .jar)"
version="${version#pmedia-client-}"
! grep -q '<parent>' "$pom" || fail "$(basename "$pom") has a parent: a vendor's Maven cannot resolve it"
! grep -q '<scope>import</scope>' "$pom" || fail "$(basename "$pom") imports a BOM into every consumer's build"
java_dir="$work/java"
repo="$work/m2"
cp -r "$ROOT/sdk/install-test/java" "$java_dir"
sed -i "s/@SDK_VERSION@/$version/" "$java_dir/pom.xml"
# Artifacts come from the machine's Maven repository, as from a company's repository (the build put them there);
# only what the project needs is copied into its own local repository, where it can be inspected.
cat >"$work/settings.xml" <<XML
<settings><mirrors><mirror><id>machine</id><mirrorOf>*</mirrorOf>
<url>file://${PMEDIA_MAVEN_REPOSITORY:-$HOME/.m2/repository}</url></mirror></mirrors></settings>
XML
mvn_fresh() { "$ROOT/mvnw" -B -q -s "$work/settings.xml" -Dmaven.repo.local="$repo" "$@"; }
# (from the empty work folder: run in a project, Maven would read that project's POM, and its parent, first)
(cd "$work" && mvn_fresh org.apache.maven.plugins:maven-install-plugin:3.1.2:install-file -Dfile="$jar" -DpomFile="$pom") \
  >"$work/mvn.log" 2>&1 || { tail -n 30 "$work/mvn.log" >&2; fail "installing $(basename "$jar") with its POM"; }
(cd "$java_dir" && mvn_fresh compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.outputFile="$work/classpath.txt") >"$work/mvn.log" 2>&1 ||
  { tail -n 30 "$work/mvn.log" >&2; fail "a fresh Maven project on io.pmedia:pmedia-client:$version"; }
[ ! -d "$repo/io/pmedia/pmedia-parent" ] || fail "resolving the SDK fetched pmedia-parent"
leaked="$(cd "$repo" && ls -d io/quarkus software/amazon 2>/dev/null || true)"
[ -z "$leaked" ] || fail "resolving the SDK fetched the platform's BOMs: $leaked"
java_out="$(java -cp "$java_dir/target/classes:$(cat "$work/classpath.txt")" example.Main)" ||
  fail "the Java program: $java_out"
if [ -n "${PMEDIA_GATEWAY_URL:-}" ]; then
  printf '%s' "$java_out" | grep -q '"status":"SUCCESS"' && printf '%s' "$java_out" | grep -q '"notFound":"NOT_FOUND"' ||
    fail "the Java program against the stack: $java_out"
fi
deps="$(tr ':' '\n' <"$work/classpath.txt" | sed 's:.*/::' | sort | tr '\n' ' ')"
pass "io.pmedia:pmedia-client:$version (jar + standalone POM) in a fresh Maven project: its dependencies $deps; $java_out"

# --- Python: pip install of the wheel into a fresh virtual environment, mypy --strict, the program ------------------
wheel="$(ls "$artifacts"/pmedia_client-*.whl 2>/dev/null | head -n 1)"
[ -n "$wheel" ] || fail "no pmedia_client-*.whl in $artifacts"
py="$work/python"
mkdir -p "$py"
cp "$ROOT/sdk/install-test/python/main.py" "$ROOT/sdk/install-test/python/mypy.ini" "$py/"
python3 -m venv "$py/venv" || fail "python3 -m venv (apt-get install python3-venv)"
# (the machine's pip configuration names the index; a primary index that does not answer fails fast)
"$py/venv/bin/pip" install -q --retries 0 --timeout 15 --disable-pip-version-check "$wheel" mypy >"$work/pip.log" 2>&1 ||
  { tail -n 20 "$work/pip.log" >&2; fail "pip install of $(basename "$wheel") (and mypy)"; }
(cd "$py" && venv/bin/python -m mypy --config-file mypy.ini main.py) >"$work/mypy.log" 2>&1 ||
  { cat "$work/mypy.log" >&2; fail "mypy --strict on the program"; }
(cd "$py" && venv/bin/python -m unittest discover -s "$ROOT/sdk/python/tests") >"$work/unittest.log" 2>&1 ||
  { tail -n 40 "$work/unittest.log" >&2; fail "the Python SDK's unit tests (sdk/python/tests) on the installed wheel"; }
py_out="$(cd "$py" && venv/bin/python main.py)" || fail "the Python program: $py_out"
if [ -n "${PMEDIA_GATEWAY_URL:-}" ]; then
  printf '%s' "$py_out" | grep -q '"status": "SUCCESS"' && printf '%s' "$py_out" | grep -q '"notFound": "NOT_FOUND"' ||
    fail "the Python program against the stack: $py_out"
fi
pass "pmedia-client from $(basename "$wheel") in a fresh virtual environment: mypy --strict (pydantic plugin) clean, $(grep -Eo '^Ran [0-9]+ tests' "$work/unittest.log") of sdk/python/tests pass; $py_out"
