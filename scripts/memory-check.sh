#!/usr/bin/env bash
# Memory outside the heap, measured while the end-to-end stage loads the stack (issue 38; docs/operations.md,
# "Memory"). The limits of deploy/k8s are computed by deploy-checks' MemoryTest from the figures of docs/performance.md
# ("Memory outside the heap"): a module's figure (the largest of its rows) times its headroom. This check
# holds those figures to what the services do: every service JVM of the stack is sampled while the system tests run,
# and a JVM whose resident memory outside its heap went past its module's figure times that headroom fails the stage,
# since a pod sized from the figure would then be killed for memory.
#
#   scripts/memory-check.sh sample DIR   samples every service JVM into DIR/samples (2 s between rounds) until killed
#   scripts/memory-check.sh check DIR    prints each instance's peak against its allowance; exits 1 when one is over
#
# Outside the heap = RSS - the resident part of the heap's mapping (the one mapping of the heap's size: the stack
# starts every JVM with -Xms = -Xmx), as bench/memory/native.sh counts it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# The headroom MemoryTest sizes the limits with (read from it, so the two cannot drift apart).
headroom() {
  sed -n 's/.*static final double NON_HEAP_HEADROOM = \([0-9.]*\);.*/\1/p' \
    deploy-checks/src/test/java/io/pmedia/deploy/checks/MemoryTest.java
}

# The figure of each module: the largest of its rows (idle, under a load, in ./pmedia test), as MemoryTest takes it.
figures() {
  awk -F'|' '
    /^## Memory outside the heap/ { in_section = 1; next }
    in_section && /^## / { in_section = 0 }
    in_section && /^\| module( under load| in \.\/pmedia test)? \|/ { table = 1; next }
    in_section && table && /^\|---/ { next }
    in_section && table && /^\| / {
      module = $2; gsub(/ /, "", module); value = $(NF - 1); gsub(/ /, "", value)
      if (value + 0 > best[module]) best[module] = value + 0
      next
    }
    { table = 0 }
    END { for (m in best) print m, best[m] }' docs/performance.md
}

# One sample: "instance module outside RSS heap-resident" (KiB) for every running service JVM of .pmedia/run.
sample_once() {
  local file name pid args jar module heap rss resident
  for file in .pmedia/run/*.pid; do
    [ -f "$file" ] || continue
    name="$(basename "$file" .pid)"
    pid="$(cat "$file" 2>/dev/null)" || continue
    [ -r "/proc/$pid/cmdline" ] || continue
    args="$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null)" || continue
    jar="$(sed -n '/quarkus-run\.jar$/p' <<<"$args" | head -n 1)"
    [ -n "$jar" ] || continue
    module="$(basename "$(dirname "$jar")")"
    case "$module" in *-service) ;; *) module="$module-service" ;; esac
    heap="$(sed -n 's/^-Xmx\([0-9]*\)\([kKmMgG]\)$/\1 \2/p' <<<"$args" | tail -n 1)"
    [ -n "$heap" ] || continue
    heap="$(awk -v n="${heap% *}" -v u="${heap#* }" 'BEGIN {
      m = (u ~ /[gG]/) ? 1048576 : (u ~ /[mM]/) ? 1024 : 1; print n * m }')"
    rss="$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status" 2>/dev/null)" || continue
    resident="$(awk -v size="$heap" '$1 == "Size:" { this = ($2 == size) } this && $1 == "Rss:" { print $2; exit }' \
      "/proc/$pid/smaps" 2>/dev/null)" || continue
    [ -n "$rss" ] && [ -n "$resident" ] || continue
    echo "$name $module $((rss - resident)) $rss $resident"
  done
}

case "${1:-}" in
  sample)
    [ -n "${2:-}" ] || { sed -n '9,10p' "$0" >&2; exit 2; }
    mkdir -p "$2"
    while :; do
      sample_once >>"$2/samples" || true
      sleep 2
    done
    ;;
  check)
    [ -s "${2:-}/samples" ] || { echo "memory check: no samples in ${2:-}" >&2; exit 1; }
    allowance="$(headroom)"
    [ -n "$allowance" ] || { echo "memory check: MemoryTest's NON_HEAP_HEADROOM not found" >&2; exit 1; }
    awk -v headroom="$allowance" '
      FNR == NR { figure[$1] = $2; next }
      { if ($3 > peak[$1]) { peak[$1] = $3; rss[$1] = $4; heap[$1] = $5 }; module[$1] = $2; n[$1]++ }
      END {
        status = 0
        for (name in peak) {
          m = module[name]
          if (!(m in figure)) { printf "over %s: %s has no figure in docs/performance.md\n", name, m; status = 1; continue }
          mib = peak[name] / 1024; allowed = figure[m] * headroom
          printf "%s %s: %d MiB outside the heap at its peak (RSS %d MiB, heap resident %d MiB; %d samples); %s is written down at %d MiB, %d with headroom\n",
            (mib > allowed ? "over" : "ok"), name, mib, rss[name] / 1024, heap[name] / 1024, n[name], m, figure[m], allowed
          if (mib > allowed) status = 1
        }
        exit status
      }' <(figures) "$2/samples"
    ;;
  *)
    sed -n '9,10p' "$0" >&2
    exit 2
    ;;
esac
