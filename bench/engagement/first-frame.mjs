// The share page in Chromium on loopback (bench/engagement): RUNS navigations, each timed from the start of the
// navigation to the first video frame painted (requestVideoFrameCallback, playback started by the script as soon as
// the page loads), and the page's own weight (every response but the video and its poster). Prints JSON.
// Usage: node first-frame.mjs SHARE_URL RUNS
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../build/node/package.json'));
const { chromium } = require('playwright-core');
const [shareUrl, runsText] = process.argv.slice(2);
const runs = Number(runsText || 10);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
});
const times = [];
let weight = 0;
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  let bytes = 0;
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type === 'media' || response.url().includes('/video.mp4') || response.url().includes('/poster.jpg')
      || response.status() >= 300 && response.status() < 400) { return; }
    try { bytes += (await response.body()).length; } catch (e) { /* redirects have no body */ }
  });
  await page.goto(shareUrl, { waitUntil: 'load' });
  const ms = await page.evaluate(() => new Promise((resolve) => {
    const video = document.getElementById('player');
    video.muted = true;
    video.requestVideoFrameCallback(() => resolve(performance.now()));
    video.play();
  }));
  times.push(ms);
  weight = Math.max(weight, bytes);
  await context.close();
}
await browser.close();
times.sort((a, b) => a - b);
const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
process.stdout.write(JSON.stringify({ runs, p50: at(0.5), p90: at(0.9), max: at(1), pageBytes: weight }) + '\n');
