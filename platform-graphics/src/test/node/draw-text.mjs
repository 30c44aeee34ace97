// Chromium draws each string of a JSON job the way a browser would (HTML text, CSS font stack, dir="auto"), black on
// white, at the same place and font size as the engine's test scene, and saves a PNG per string.
// Usage: node draw-text.mjs job.json   (job: {width, height, x, y, size, lineHeight, families: [...], items: [{text, out}]})
import { readFileSync } from 'node:fs';
import { launchChromium } from '../../../../system-tests/browser/chromium.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: job.width, height: job.height }, deviceScaleFactor: 1 });
  const stack = job.families.map((f) => `'${f.replace(/[^A-Za-z0-9 ]/g, '')}'`).join(', ');
  for (const item of job.items) {
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff">
      <div id="t" dir="auto" style="position:absolute;left:${job.x}px;top:${job.y}px;white-space:pre;
        font-family:${stack};font-size:${job.size}px;line-height:${job.lineHeight};color:#000"></div></body></html>`);
    await page.$eval('#t', (el, text) => { el.textContent = text; }, item.text);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: item.out });
  }
} finally {
  await browser.close();
}
