// Links rendered on first view in Chromium (bench/engagement/on-view.sh; figures in docs/performance.md): each link
// is opened in a fresh browser context, timed from the start of the navigation to its first video frame playing (the
// render's stream while it runs), then, once its render has ended, opened again (the MP4, as every later view plays
// it) and timed the same way. One link at a time, so each open meets an idle realtime lane. Prints JSON.
// Usage: node on-view.mjs '<url>\n<url>...'
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../build/node/package.json'));
const { chromium } = require('playwright-core');
const urls = process.argv[2].split('\n').filter(Boolean);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
});
const result = { neverRendered: [], rendered: [], players: {}, errors: [] };
try {
  for (const url of urls) {
    const first = await firstFrame(url);
    result.neverRendered.push(first.ms);
    result.players[first.player] = (result.players[first.player] || 0) + 1;
    await ready(url);
    result.rendered.push((await firstFrame(url)).ms);
  }
} catch (error) {
  result.errors.push(String(error && error.stack || error));
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(result) + '\n');

/** Milliseconds from the start of the navigation to the first frame of the page's player playing. */
async function firstFrame(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(() => {
      const v = document.getElementById('player');
      if (!v || v.hidden) { return false; }
      // a page with its video plays it when asked (as bench/engagement/first-frame.mjs asks); one still rendering
      // plays its stream by itself
      if (v.paused && !v.dataset.asked && !document.getElementById('stage')) { v.dataset.asked = '1'; v.play().catch(() => {}); }
      if (v.readyState < 2 || v.currentTime <= 0) { return false; }
      return { ms: performance.now(), player: v.getAttribute('data-player') || 'mp4' };
    }, null, { timeout: 120000, polling: 'raf' });
    return await handle.jsonValue();
  } finally {
    await context.close();
  }
}

/** Waits until the link's render has ended (its state says ready). */
async function ready(url) {
  for (let i = 0; i < 600; i++) {
    const answer = await fetch(url + '/state', { cache: 'no-store' }).then((r) => r.json()).catch(() => ({}));
    if (answer.state === 'ready') { return; }
    if (answer.state === 'failed') { throw new Error(url + ': its render failed'); }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(url + ': not rendered within 5 minutes');
}
