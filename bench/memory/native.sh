#!/usr/bin/env bash
# The memory a service's JVM holds outside its heap under a load (issue 38; figures in docs/performance.md, "Memory
# outside the heap"), through the running stack: the service is restarted with native memory tracking
# (JAVA_TOOL_OPTIONS=-XX:NativeMemoryTracking=summary, a few percent of CPU), COMMAND runs as the load, the process's
# RSS and `jcmd VM.native_memory summary` are sampled every 5 s, and the sample with the largest RSS is printed by
# category (committed MiB); the service is then restarted as ./pmedia starts it.
# Usage: bench/memory/native.sh SERVICE COMMAND...   e.g. bench/memory/native.sh engagement bench/batch/run.sh links
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
[ $# -ge 2 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
service="$1"
shift
work="$(mktemp -d)"
trap 'unset JAVA_TOOL_OPTIONS; ./pmedia stop "$service" >/dev/null; ./pmedia start "$service" >/dev/null; rm -rf "$work"' EXIT

./pmedia stop "$service" >/dev/null
# exported for the load too: a load that restarts the service (the gateway's benchmark does) keeps it tracked
export JAVA_TOOL_OPTIONS="-XX:NativeMemoryTracking=summary"
./pmedia start "$service" >/dev/null
# One sample: the RSS, the resident part of the heap's mapping (the one mapping of the heap's size, -Xms = -Xmx, as the
# table of docs/performance.md counts it), and the tracked categories.
sample() {
  local nmt heap pid
  pid="$(cat ".pmedia/run/$service.pid")" # read each time: the load may have restarted it
  nmt="$(jcmd "$pid" VM.native_memory summary 2>/dev/null | sed -n 's/^-[[:space:]]*\(.*[^ ]\) (reserved=[0-9]*KB, committed=\([0-9]*\)KB)$/\1\t\2/p')" || return 1
  [ -n "$nmt" ] || return 1
  heap="$(printf '%s\n' "$nmt" | awk -F'\t' '$1 == "Java Heap" { print $2 }')"
  printf '=== %s rss=%s\n' "$(date -u +%T)" "$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")"
  printf 'heap resident\t%s\n' "$(awk -v size="$heap" '$1 == "Size:" { this = ($2 == size) } this && $1 == "Rss:" { print $2; exit }' "/proc/$pid/smaps")"
  printf '%s\n' "$nmt"
}
(while :; do sample >"$work/one" 2>/dev/null && cat "$work/one" >>"$work/samples"; sleep 5; done) &
sampler=$!
printf 'native memory of %s-service under "%s", %s, %s (%s cores), commit %s\n' "$service" "$*" \
  "$(date -u +%FT%TZ)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" \
  "$(git rev-parse --short HEAD)"
"$@" >"$work/load.log" 2>&1 || { echo "the load failed:" >&2; tail -20 "$work/load.log" >&2; }
kill "$sampler" 2>/dev/null || true
sample >>"$work/samples" 2>/dev/null || true
printf '%-36s %10s %12s\n' "category (committed MiB)" "at start" "at peak RSS"
awk -F'\t' '
  /^=== / { rss = substr($0, index($0, "rss=") + 4) + 0; n++; r[n] = rss; if (rss > best) { best = rss; at = n }; next }
  { v[n, $1] = $2; names[$1] = 1; if ($1 != "Java Heap" && $1 != "heap resident") outside[n] += $2 }
  END {
    for (k in names) if (v[1, k] + v[at, k] >= 1024) printf "%d|%s|%d\n", v[at, k] / 1024, k, v[1, k] / 1024
    printf "%d|%s|%d\n", best / 1024, "RSS (the heap'"'"'s touched pages in it)", r[1] / 1024
    printf "%d|%s|%d\n", outside[at] / 1024, "all but the heap (tracked)", outside[1] / 1024
    printf "%d|%s|%d\n", (best - v[at, "heap resident"]) / 1024, "outside the heap (RSS - heap resident)", (r[1] - v[1, "heap resident"]) / 1024
  }' "$work/samples" | sort -t'|' -k1,1nr | awk -F'|' '{ printf "%-36s %10d %12d\n", $2, $3, $1 }'
