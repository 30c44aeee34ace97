# shellcheck shell=bash
# What the machine must have: a JDK, curl, FFmpeg with a font, node/npm for the test suite's npm tools. As root with
# apt-get, missing packages are installed; otherwise the error names the package to install.
# (PostgreSQL has its own file: postgres.sh.)

apt_install() { # packages...
  is_root || die "$* missing and not root: install it (apt-get install $*) and run again"
  command -v apt-get >/dev/null || die "$* missing and no apt-get here: install it and run again"
  info "installing $* (apt-get; output in $LOGS/apt.log)"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y --no-install-recommends "$@" >>"$LOGS/apt.log" 2>&1 ||
    { apt-get update >>"$LOGS/apt.log" 2>&1 && apt-get install -y --no-install-recommends "$@" >>"$LOGS/apt.log" 2>&1; }; } ||
    die "apt-get install $* failed (see $LOGS/apt.log)"
}

ensure_jdk() {
  command -v java >/dev/null || die "java not found: install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
  local version
  version="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
  version="${version#1.}"
  [ "${version%%.*}" -ge 17 ] 2>/dev/null ||
    die "java ${version:-of unknown version} found on PATH; pmedia needs a JDK 17 or newer"
  command -v javac >/dev/null || [ -x "${JAVA_HOME:-/nonexistent}/bin/javac" ] ||
    die "java $version is a JRE without javac: install a JDK (apt-get install openjdk-17-jdk-headless)"
}

# curl talks to every component; it signs requests to the object store (--aws-sigv4, curl 7.75 or newer).
ensure_curl() {
  command -v curl >/dev/null || apt_install curl ca-certificates
  local help
  help="$(curl --help all 2>/dev/null || true)"
  [[ "$help" == *--aws-sigv4* ]] ||
    die "$(curl --version | head -n 1 | cut -d' ' -f1-2) cannot sign requests (--aws-sigv4): pmedia needs curl 7.75 or newer"
}

ensure_ffmpeg() {
  if ! command -v ffmpeg >/dev/null || ! command -v ffprobe >/dev/null; then
    apt_install ffmpeg fonts-dejavu-core
  fi
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || apt_install fonts-dejavu-core
  command -v espeak-ng >/dev/null || apt_install espeak-ng
  ensure_graphics
}

# The graphics engine (platform-graphics: Skia through Skiko) loads a native library that links libGL, libX11 and
# fontconfig even headless, and shapes text with a Noto fallback chain behind the template's font (docs/templates.md):
# without these fonts, CJK, Indic, Thai and emoji names render as boxes.
GRAPHICS_PACKAGES=(libgl1 libx11-6 libfontconfig1 fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji)
ensure_graphics() {
  local missing=() package
  for package in "${GRAPHICS_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ "${#missing[@]}" -eq 0 ] || apt_install "${missing[@]}"
}

# The npm tools the test suite runs (build/node/package.json, e.g. the OpenAPI linter), installed exactly as locked
# with `npm ci`. Nothing to do without that file; skipped when node_modules is newer than the manifest and the lock.
NODE_TOOLS="$ROOT/build/node"
ensure_node_tools() {
  [ -f "$NODE_TOOLS/package.json" ] || return 0
  [ -f "$NODE_TOOLS/package-lock.json" ] ||
    die "build/node/package.json has no package-lock.json beside it: npm ci installs only what a lock pins (npm install --prefix build/node writes one; commit it)"
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then apt_install nodejs npm; fi
  local stamp="$NODE_TOOLS/node_modules/.package-lock.json"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$NODE_TOOLS/package.json" ] && [ "$stamp" -nt "$NODE_TOOLS/package-lock.json" ]; then
    return 0
  fi
  info "installing the test suite's npm tools (npm ci --prefix build/node; log: $LOGS/npm.log)"
  npm ci --prefix "$NODE_TOOLS" --no-audit --no-fund >"$LOGS/npm.log" 2>&1 ||
    die "npm ci --prefix build/node failed (see $LOGS/npm.log)"
}

# The browser the page tests drive (Debian's chromium, through playwright-core from build/node): share pages, the
# console, HLS playback (contracts.md, "Viewers, the console and SDKs").
ensure_chromium() {
  command -v chromium >/dev/null || apt_install chromium fonts-dejavu-core
}
