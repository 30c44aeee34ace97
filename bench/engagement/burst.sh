#!/usr/bin/env bash
# A burst of opens of never-rendered links (issue 37; figures in docs/performance.md), through the running stack
# (started with ./pmedia up unless it runs): an on-view task of product-tour (30 s 1280x720) with LINKS+2 rows, its
# first two links opened and rendered one after the other (the first caches the version's pieces, the second keeps its
# opening: as for every version but a new one), then LINKS distinct links opened within SECONDS by
# bench/engagement/burst-viewers.mjs (BROWSERS of them in Chromium, the rest by a client doing what the page and hls.js
# do), each watched for WATCH seconds: first frame (first segment) per open, stalls, 5xx; and POST /media/demo's
# acceptance latency without, then during, the burst (bench/engagement/burst.mjs, in a process of its own). The
# gateway's per-address viewer budget is raised for the bench (one address stands for LINKS viewers) and restored
# after it.
# Usage: bench/engagement/burst.sh [LINKS=200] [SECONDS=10] [WATCH=30] [BROWSERS=10]
# BURST_VIEWER_NICE (0-19, default 10; BURST_BROWSER_NICE before 2026-12-02): how much lower the viewers (the
# simulated clients and the browsers, and the browsers' session) run than the platform and the demo calls.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
LINKS="${1:-200}"
SECONDS_="${2:-10}"
WATCH="${3:-30}"
BROWSERS="${4:-10}"

# shellcheck source=scripts/lib/stack.sh
. scripts/lib/stack.sh
use_stack engagement >/dev/null
browser_tools
work="$(mktemp -d)"
# The burst comes from this one address and stands for LINKS viewers, whom the gateway would each give its viewer
# budget (120, then 20 a second, per address): the gateway runs with a budget for all of them during the bench, and
# with its own again afterwards.
viewer_budget() { # BURST PER_SECOND (none: the defaults)
  ./pmedia stop gateway >/dev/null
  if [ $# -eq 2 ]; then
    PMEDIA_GATEWAY_VIEWER_LIMITS_BURST="$1" PMEDIA_GATEWAY_VIEWER_LIMITS_PER_SECOND="$2" ./pmedia start gateway >/dev/null
  else
    env -u PMEDIA_GATEWAY_VIEWER_LIMITS_BURST -u PMEDIA_GATEWAY_VIEWER_LIMITS_PER_SECOND ./pmedia start gateway >/dev/null
  fi
}
# Renders run where the cluster runs them (BURST_TOPOLOGY=cluster, the default): in a render worker beside media in
# the api role (deploy/k8s: media-api and media-worker), so the API's process never holds a render's JVM work (its
# drawing, its stream writer, their garbage). When the stack runs media alone (`./pmedia up` on one machine), the
# bench starts media-worker-1 and restarts media as api for its run, and puts both back after it.
# BURST_TOPOLOGY=as-is measures the stack as it runs.
workers() { local status; status="$(./pmedia status 2>/dev/null || true)"; grep -c '^media-worker-[0-9]* *up' <<<"$status"; }
split=0
if [ "${BURST_TOPOLOGY:-cluster}" = cluster ] && [ "$(workers)" = 0 ]; then
  ./pmedia start media-worker-1 >/dev/null
  PMEDIA_MEDIA_ROLE=api ./pmedia restart media >/dev/null
  split=1
fi
topology() { # puts media back as it was
  if [ "$split" = 1 ]; then
    ./pmedia restart media >/dev/null
    ./pmedia stop media-worker-1 >/dev/null
  fi
}
trap 'viewer_budget; topology; rm -rf "$work"; release_stack >/dev/null' EXIT
viewer_budget $((LINKS * 120)) $((LINKS * 20))
GW="$PMEDIA_GATEWAY_URL"
TOKEN="$(demo_token)"

printf 'burst of opens benchmark, %s, %s (%s cores), commit %s, load %s, media: %s\n' "$(date -u +%FT%TZ)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" "$(git rev-parse --short HEAD)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" \
  "$(n="$(workers)"; [ "$n" = 0 ] && echo 'one process' || echo "api beside $n render worker(s)")"

template="$(template_of "$TOKEN" product-tour)"
[ -n "$template" ] || { echo "the demo vendor has no product-tour template" >&2; exit 1; }
rows=$((LINKS + 2))
salt="$(date +%s)"
awk -v n="$rows" -v salt="$salt" 'BEGIN { print "user-id,name,offer"; for (i = 1; i <= n; i++) printf "u-%d,Viewer %d-%s,%d%% off\n", i, i, salt, 10 + i % 40 }' \
  >"$work/burst.csv"
file="$(stack_upload "$TOKEN" "$work/burst.csv" burst.csv)"
task="$(on_view_task "$TOKEN" "$template" bench-burst "$file" "$rows" "$work/links")"
await_pages "$TOKEN" bench-burst "$task" "$rows"
node bench/engagement/on-view.mjs "$(sed -n 1p "$work/links")" >/dev/null
node bench/engagement/on-view.mjs "$(sed -n 2p "$work/links")" >/dev/null
tail -n +3 "$work/links" >"$work/burst-links"

node bench/engagement/burst.mjs "$GW" "$TOKEN" greeting "$work/burst-links" "$SECONDS_" "$WATCH" "$BROWSERS" >"$work/result.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const q = (xs, p) => { if (!xs.length) { return NaN; } const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
const f = (ms) => isNaN(ms) ? "-" : (ms / 1000).toFixed(2) + " s";
const clients = r.results.filter((x) => x.client).map((x) => x.client);
const browsers = r.results.filter((x) => x.browser).map((x) => x.browser);
const firsts = clients.filter((c) => c.firstSegmentMs !== null).map((c) => c.firstSegmentMs);
const statuses = {};
clients.forEach((c) => { statuses[c.status] = (statuses[c.status] || 0) + 1; });
const refused = clients.reduce((a, c) => a + (c.refused || 0), 0);
console.log(`playlist reads not 200: ${refused}; opens that failed: ${clients.filter((c) => c.failure).length} ${JSON.stringify([...new Set(clients.filter((c) => c.failure).map((c) => c.failure))].slice(0, 3))}`);
console.log(`opens: ${r.results.length} (${clients.length} as the page and hls.js do, ${browsers.length} in Chromium), page answers ${JSON.stringify(statuses)}, 5xx ${clients.reduce((a, c) => a + c.fiveXX, 0)}`);
console.log(`first segment (client): ${firsts.length}/${clients.length} within the watch, p50 ${f(q(firsts, .5))}, p95 ${f(q(firsts, .95))}, max ${f(Math.max(...firsts))}`);
const stalled = clients.filter((c) => c.stalls > 0);
console.log(`stalls (client): ${stalled.length} of ${clients.length} opens stalled, ${clients.reduce((a, c) => a + c.stalls, 0)} stalls, stalled time p50 ${f(q(stalled.map((c) => c.stalledMs), .5))}, max ${f(Math.max(0, ...stalled.map((c) => c.stalledMs)))}`);
const bf = browsers.filter((b) => b.ms !== null).map((b) => b.ms);
console.log(`first frame (Chromium): ${bf.length}/${browsers.length}, p50 ${f(q(bf, .5))}, max ${f(Math.max(...bf))}, waiting events ${JSON.stringify(browsers.map((b) => b.waiting ?? b.error))}`);
const p = (xs) => `p50 ${f(q(xs, .5))}, p99 ${f(q(xs, .99))} (${xs.length} requests)`;
console.log(`POST /media/demo replayed to warm the restarted gateway (not counted): ${p(r.warmUp.times)}, refused ${JSON.stringify(r.warmUp.refused)}`);
console.log(`POST /media/demo accepted: without the burst ${p(r.quiet.times)}; during it ${p(r.burst.times)}; ratio of p99 ${(q(r.burst.times, .99) / q(r.quiet.times, .99)).toFixed(2)} (goal <= 1.2); refused ${JSON.stringify(r.quiet.refused.concat(r.burst.refused))}`);
' "$work/result.json"
