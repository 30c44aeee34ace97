// Links rendered on first view, as viewers meet them, in Debian's Chromium (playwright-core from build/node): each
// page is opened before its video exists, says it is being prepared, then plays the stream its render writes (or
// the video when it comes), to its end.
// Pages are opened side by side. Prints one JSON line of what each page did; system-tests OnViewTest asserts it.
// Usage: node on-view.mjs '{"urls": "<url>\n<url>...", "screenshot": "<path>"}' (one URL a line)
import { launchChromium } from './chromium.mjs';

const input = JSON.parse(process.argv[2]);

const browser = await launchChromium();
const result = { pages: [] };
try {
  const context = await browser.newContext({ viewport: { width: 960, height: 720 } });
  result.pages = await Promise.all(input.urls.split("\n").map((url, i) => watch(context, url, i === 0 ? input.screenshot : null)));
} catch (error) {
  result.error = String(error && error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(result) + '\n');

/** One page: what it first said, when its video started playing after the page loaded, and whether it ended. */
async function watch(context, url, screenshot) {
  const page = await context.newPage();
  const seen = { url, errors: [], failedRequests: [] };
  const timeline = []; // (last in what the page says: a failure's message shows what it did first)
  const started = Date.now();
  page.on('pageerror', (error) => seen.errors.push(String(error && error.stack || error)));
  // A resource that failed is reported by its response below (with its URL), not by the console's line.
  page.on('console', (message) => {
    if (message.type() === 'info' && message.text().startsWith('pmedia:')) { timeline.push((Date.now() - started) + ' ' + message.text()); }
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) { seen.errors.push(message.text()); }
  });
  page.on('response', (answer) => { if (answer.status() >= 400) { seen.failedRequests.push(answer.status() + ' ' + answer.url()); } });
  // What the page fetched of its stream and its state, and when (ms after the open): a page that ends on the MP4 says
  // whether its stream failed or was overtaken by the render.
  page.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname;
    if (/\/state$|\.(m3u8|ts|m4s|mp4)$/.test(path)) {
      request.response().then((answer) => {
        const code = answer ? answer.status() : '-';
        // (the playlist's reloads only when they fail, and the first: a render waiting for its turn reloads it often)
        if (path.endsWith('.m3u8') && code === 200 && timeline.some((line) => line.endsWith(path))) { return; }
        timeline.push((Date.now() - started) + ' ' + code + ' ' + path);
      }).catch(() => {});
    }
  });
  page.on('requestfailed', (request) => timeline.push((Date.now() - started) + ' failed ' + new URL(request.url()).pathname + ' ' + (request.failure() || {}).errorText));
  try {
    const answer = await page.goto(url, { waitUntil: 'load' });
    seen.status = answer.status();
    seen.firstState = await page.evaluate(() => {
      const stage = document.getElementById('stage');
      return stage ? stage.getAttribute('data-state') : (document.getElementById('player') ? 'video' : 'none');
    });
    // the playlist of the template's cached opening, handed to the page by the open that claimed its render
    seen.handedOpening = await page.evaluate(() => !!document.querySelector('#stage[data-opening]'));
    seen.preparingText = await page.evaluate(() => {
      const status = document.querySelector('.preparing');
      return status ? status.textContent : null;
    });
    if (screenshot) { await page.screenshot({ path: screenshot, fullPage: true }); }
    await page.waitForFunction(() => {
      const v = document.getElementById('player');
      return v && v.readyState >= 2 && !v.hidden;
    }, null, { timeout: 240000, polling: 100 });
    seen.playableMs = Date.now() - started;
    // 'hls.js' (or 'native'): the stream the render writes, played while it runs; none: the MP4 once it was ready.
    seen.player = await page.evaluate(() => document.getElementById('player').getAttribute('data-player') || 'mp4');
    seen.stillPreparing = await page.evaluate(() => !!document.getElementById('stage'));
    // Muted and faster, so a 30 s video plays to its end in a few seconds of the test. A page handed the opening plays
    // it at once, then waits for its render's segments: the five renders are admitted two a worker slot, so the last
    // one starts when the first ones end (on a loaded 2-core CI machine, minutes after its page opened).
    await page.evaluate(() => { const v = document.getElementById('player'); v.muted = true; v.playbackRate = 4; return v.play(); });
    await page.waitForFunction(() => document.getElementById('player').ended, null, { timeout: 360000, polling: 200 });
    seen.ended = true;
    seen.duration = await page.evaluate(() => document.getElementById('player').duration);
  } catch (error) {
    seen.error = String(error && error.message || error);
  } finally {
    await page.close();
  }
  seen.timeline = timeline;
  return seen;
}
