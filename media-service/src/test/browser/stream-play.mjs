// A stream-url as a standard player meets it: hls.js (from build/node) in Debian's Chromium (playwright-core), handed
// the URL the moment the status offers it, with hls.js's default configuration (a 404 playlist is fatal to it).
// The page is served on the stream's own origin (intercepted by the browser, never sent), so nothing depends on CORS.
// Prints one JSON line: {"ended": bool, "fatal": [...], "errors": [...], "duration": s, "playing": s}.
// Usage: node stream-play.mjs <stream-url>
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../../build/node/package.json'));
const { chromium } = require('playwright-core');
const hlsJs = fs.readFileSync(require.resolve('hls.js/dist/hls.min.js'));
const streamUrl = process.argv[2];
const pageUrl = new URL('/__pmedia-player__/index.html', streamUrl).href;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
});
let result;
try {
  const page = await browser.newPage();
  await page.route(pageUrl, (route) => route.fulfill({ contentType: 'text/html',
    body: '<!doctype html><title>player</title><video id="v" muted playsinline></video>' }));
  await page.goto(pageUrl);
  await page.addScriptTag({ content: hlsJs.toString() });
  result = await page.evaluate((url) => new Promise((resolve) => {
    const video = document.getElementById('v');
    const errors = [];
    const fatal = [];
    let playing = null;
    const started = performance.now();
    const hls = new Hls();
    const done = (ended) => resolve({ ended, fatal, errors, duration: video.duration, currentTime: video.currentTime,
      playing });
    hls.on(Hls.Events.ERROR, (_, data) => {
      (data.fatal ? fatal : errors).push(data.details);
      if (data.fatal) done(false);
    });
    video.addEventListener('playing', () => { if (playing === null) playing = (performance.now() - started) / 1000; });
    video.addEventListener('ended', () => done(true));
    hls.loadSource(url);
    hls.attachMedia(video);
    video.play().catch((e) => errors.push('play: ' + e.message));
    setTimeout(() => done(false), 120000);
  }), streamUrl);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
