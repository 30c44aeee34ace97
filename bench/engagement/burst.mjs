// A burst of opens of never-rendered links (issue 37; bench/engagement/burst.sh; figures in docs/performance.md): the
// vendor's side. POST /media/demo at RATE a second for SECONDS without the burst, then again during it (the
// acceptance's latency), while bench/engagement/burst-viewers.mjs opens LINKS distinct links within SECONDS. The
// viewers stand for people on their own machines and the demo calls for a vendor on its own: here all share the
// platform's two cores, so the viewers run in a process of their own at a lower priority (BURST_VIEWER_NICE, 0-19,
// default 10) and the calls in this one at the platform's, so neither the viewers' work nor their event loop is
// counted in the acceptance's latency. (Until 2026-12-02 the calls and the 190-odd simulated viewers shared one
// event loop.)
// Usage: node burst.mjs GATEWAY TOKEN USE_CASE LINKS_FILE [SECONDS=10] [WATCH=30] [BROWSERS=10] [RATE=3]
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [gateway, token, useCase, linksFile, secondsArg, watchArg, browsersArg, rateArg] = process.argv.slice(2);
const seconds = Number(secondsArg || 10);
const watch = Number(watchArg || 30);
const browsers = Number(browsersArg || 10);
const rate = Number(rateArg || 3);
const niceSetting = process.env.BURST_VIEWER_NICE ?? process.env.BURST_BROWSER_NICE ?? '10';
const viewerNice = Number(niceSetting);
if (!Number.isInteger(viewerNice) || viewerNice < 0 || viewerNice > 19) {
  throw new Error(`BURST_VIEWER_NICE must be a whole number from 0 to 19, not ${niceSetting}`);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

/**
 * POST /media/demo at `rate` a second for `seconds`: each acceptance's milliseconds, and the answers that were not 200.
 * With `replay`, every call repeats one request (an idempotent replay: the whole path, one render).
 */
async function demos(phase, replay = false) {
  const times = [];
  const refused = [];
  const sent = [];
  const run = Date.now();
  for (let call = 0; call < seconds * rate; call++) {
    const n = replay ? 0 : call;
    const body = {
      'client-request-id': `bench-burst-${phase}-${run}-${n}`, 'customer-id': 'c', 'user-id': `u-${n}`,
      'use-case-id': useCase, data: { personalization_fields: { name: `Demo ${n}` } },
    };
    const start = now();
    sent.push(fetch(`${gateway}/media/demo`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => {
      await r.arrayBuffer();
      if (r.status === 200) { times.push(now() - start); } else { refused.push(r.status); }
    }).catch((e) => refused.push(String(e))));
    await sleep(1000 / rate);
  }
  await Promise.all(sent);
  return { times, refused };
}

// The bench restarted the gateway (burst.sh: the viewers' budget), so its code is not compiled yet: a phase of replays
// first, not counted, lest the quiet phase measure the JIT.
const warmUp = await demos('warm-up', true);
const quiet = await demos('quiet');
const viewerArgs = [linksFile, seconds, watch, browsers, viewerNice].map(String);
const viewers = spawn('nice', ['-n', String(viewerNice), process.execPath, path.join(here, 'burst-viewers.mjs'),
  ...viewerArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
const exited = new Promise((resolve) => viewers.on('exit', resolve));
let opening;
const opened = new Promise((resolve) => { opening = resolve; });
let results = null;
readline.createInterface({ input: viewers.stdout }).on('line', (line) => {
  if (line === 'opening') { opening(); } else if (line.startsWith('{')) { ({ results } = JSON.parse(line)); }
});
// viewers that die before their first open end the bench at once, without a burst phase of calls
if (await Promise.race([opened.then(() => 'opening'), exited]) !== 'opening') {
  throw new Error('the viewers ended before their first open');
}
const burst = await demos('burst');
const code = await exited;
if (code !== 0 || results === null) {
  throw new Error(`the viewers ended with ${code} and ${results ? '' : 'no '}results`);
}
process.stdout.write(JSON.stringify({ warmUp, quiet, burst, results }) + '\n');
