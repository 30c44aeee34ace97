// The API reference at /docs as a reader meets it, in Debian's Chromium: the page renders every operation under its
// strict Content-Security-Policy (no inline script but the page's own, hashed) and asks nothing of another origin.
// Prints one JSON line of what it saw; system-tests ApiReferencePageTest asserts it.
// Usage: node api-reference.mjs '{"url": "http://127.0.0.1:8080/docs/"}'
import { launchChromium } from './chromium.mjs';

const input = JSON.parse(process.argv[2]);
const origin = new URL(input.url).origin;

const browser = await launchChromium();
const result = { elsewhere: [], violations: [], errors: [] };
try {
  const page = await browser.newPage();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) result.elsewhere.push(url);
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) result.violations.push(message.text());
  });
  page.on('pageerror', (error) => result.errors.push(String(error)));
  const answer = await page.goto(input.url, { waitUntil: 'networkidle' });
  result.status = answer.status();
  // Redoc draws the document's sections into the page once its script ran: the proof that the hashed scripts ran.
  await page.waitForSelector('[data-section-id]', { timeout: 60000 });
  result.text = await page.evaluate(() => document.body.innerText);
} catch (error) {
  result.error = String(error && error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(result) + '\n');
