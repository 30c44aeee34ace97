// Time to the first frame playing in hls.js (issue 25): for COUNT requests of USE_CASE, one after the other, from the
// POST /media/demo until hls.js 1.7 (from build/node) in Debian's Chromium (playwright-core) plays the first frame of
// the stream-url the status offers the moment it offers it (default hls.js configuration; the page is served on the
// stream's own origin, intercepted by the browser, so nothing depends on CORS). Two warm-up requests first.
// Prints one line: {"useCase":..., "runs":n, "p50":ms, "p90":ms, "max":ms, "failed":n}.
// Usage: node bench/render/first-frame.mjs GATEWAY TOKEN COUNT USE_CASE
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../build/node/package.json'));
const { chromium } = require('playwright-core');
const hlsJs = fs.readFileSync(require.resolve('hls.js/dist/hls.min.js')).toString();
const [gateway, token, countArg, useCase] = process.argv.slice(2);
const count = Number(countArg || 10);

async function accept(n) {
  const body = {
    'client-request-id': `bench-first-frame-${Date.now()}-${n}`, 'customer-id': 'c', 'user-id': `u-${n}`,
    'use-case-id': useCase, data: { personalization_fields: { name: `Viewer ${n}` } },
  };
  const answer = await fetch(`${gateway}/media/demo`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());
  const status = await fetch(`${gateway}/status/${answer['service-request-id']}`,
    { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json());
  return status['stream-url'];
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
});
const times = [];
let failed = 0;
// the player's page is served on the stream's own origin (as stream-play.mjs does), learnt from one request
const storeOrigin = new URL(await accept(-1)).origin;
try {
  for (let n = 0; n < count + 2; n++) {
    const page = await browser.newPage();
    // the page and hls.js are loaded before the clock starts: only the request and the stream are timed
    const pageUrl = `${storeOrigin}/__pmedia-player__/index.html`;
    await page.route(pageUrl, (route) => route.fulfill({ contentType: 'text/html',
      body: '<!doctype html><title>player</title><video id="v" muted playsinline></video>' }));
    await page.goto(pageUrl);
    await page.addScriptTag({ content: hlsJs });
    const started = Date.now();
    const url = await accept(n);
    let played = null;
    if (url) {
      played = await page.evaluate((streamUrl) => new Promise((resolve) => {
        const video = document.getElementById('v');
        const hls = new Hls();
        hls.on(Hls.Events.ERROR, (_, data) => { if (data.fatal) resolve({ fatal: data.details }); });
        video.requestVideoFrameCallback(() => resolve({ ok: true }));
        hls.loadSource(streamUrl);
        hls.attachMedia(video);
        video.play().catch(() => {});
        setTimeout(() => resolve({ fatal: 'timeout' }), 60000);
      }), url);
    }
    const ms = Date.now() - started;
    await page.close();
    if (!played || !played.ok) {
      failed++;
      console.error(`request ${n}: ${url ? JSON.stringify(played) : 'no stream-url'}`);
    } else if (n >= 2) {
      times.push(ms);
    }
  }
} finally {
  await browser.close();
}
times.sort((a, b) => a - b);
const at = (p) => (times.length ? times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] : null);
console.log(JSON.stringify({ useCase, runs: times.length, p50: at(0.5), p90: at(0.9), max: at(1), failed }));
