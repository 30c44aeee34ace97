// The share page as a viewer meets it, in Debian's Chromium (playwright-core from build/node): it plays the video to
// its end, the escaped call to action opens its URL, and the embed player is refused by a foreign origin and shown by
// an allowed one. Prints one JSON line of what it saw; system-tests SharePageTest asserts it and the rollup after it.
// Usage: node share-page.mjs '{"mode": "watch"|"embed", "shareUrl":..., "ctaPrefix":..., "foreignPage":...,
//   "allowedPage":..., "screenshot":...}'
import { launchChromium } from './chromium.mjs';

const input = JSON.parse(process.argv[2]);

const browser = await launchChromium();
const result = { dialogs: [], console: [] };
try {
  const context = await browser.newContext({ viewport: { width: 960, height: 720 } });
  const page = await context.newPage();
  page.on('dialog', async (dialog) => { result.dialogs.push(dialog.message()); await dialog.dismiss(); });
  page.on('console', (message) => result.console.push(message.text()));

  if (input.mode === 'embed') {
    await embeds(context);
  } else {
    await watch(page);
  }
} catch (error) {
  result.error = String(error && error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(result) + '\n');

/** The page: played to its end, screenshot, the call to action followed. */
async function watch(page) {
  const answer = await page.goto(input.shareUrl, { waitUntil: 'load' });
  result.status = answer.status();
  result.title = await page.title();
  result.ctaText = await page.locator('a.cta').textContent();
  result.injectedImages = await page.locator('main img:not(.logo)').count();
  await page.waitForFunction(() => document.getElementById('player').readyState >= 1, null, { timeout: 30000 });
  await page.evaluate(() => { const v = document.getElementById('player'); v.muted = true; return v.play(); });
  await page.waitForFunction(() => document.getElementById('player').ended, null, { timeout: 60000 });
  result.ended = true;
  result.duration = await page.evaluate(() => document.getElementById('player').duration);
  await page.screenshot({ path: input.screenshot, fullPage: true });

  await Promise.all([page.waitForURL((url) => url.href.startsWith(input.ctaPrefix), { timeout: 15000 }),
    page.click('a.cta')]);
  result.landed = page.url();
}

/** The embed player, framed by a foreign origin (refused) and by an allowed one (shown). */
async function embeds(context) {
  const foreign = await context.newPage();
  const refusals = [];
  foreign.on('console', (message) => refusals.push(message.text()));
  await foreign.goto(input.foreignPage, { waitUntil: 'load' });
  result.foreignFrameUrls = foreign.frames().map((frame) => frame.url());
  result.foreignFrameHasVideo = await frameHasVideo(foreign);
  result.foreignRefusals = refusals.filter((text) => text.includes('frame-ancestors') || text.includes('Refused to frame'));

  const allowed = await context.newPage();
  await allowed.goto(input.allowedPage, { waitUntil: 'load' });
  await allowed.waitForFunction(() => document.querySelector('iframe') !== null);
  result.allowedFrameHasVideo = await waitForFrameVideo(allowed);
}

async function frameHasVideo(page) {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) { continue; }
    try {
      if (await frame.locator('video').count() > 0) { return true; }
    } catch (e) { /* a refused frame has no document */ }
  }
  return false;
}

async function waitForFrameVideo(page) {
  for (let i = 0; i < 50; i++) {
    if (await frameHasVideo(page)) { return true; }
    await page.waitForTimeout(100);
  }
  return false;
}
