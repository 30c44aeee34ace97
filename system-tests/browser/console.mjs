// The console as a vendor and the operator use it, in Debian's Chromium (playwright-core and axe-core from
// build/node): sign in, build a template and watch its preview follow the text, render it and play the video to its
// end, run a 3-row batch to 100 % and download its output, replay a failed webhook delivery, visit every page, sign
// out; then the operator onboards and revokes a vendor. Every page is checked with axe-core (serious and critical
// violations reported) and screenshotted; no Content-Security-Policy violation may occur. Prints one JSON line of
// what it saw; system-tests ConsoleTest asserts it.
// Usage: node console.mjs '{"base":..., "clientId":..., "secret":..., "adminToken":..., "useCase":...,
//   "csv":..., "hook":..., "artifacts":...}'
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { launchChromium, requireTool } from './chromium.mjs';

const axeSource = await readFile(requireTool.resolve('axe-core/axe.min.js'), 'utf8');
const input = JSON.parse(process.argv[2]);

const result = { pages: {}, console: [], cspViolations: [], pageErrors: [], steps: [] };
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (message) => {
    result.console.push(`${message.type()}: ${message.text()}`);
    if (/Content Security Policy/i.test(message.text())) { result.cspViolations.push(message.text()); }
  });
  page.on('pageerror', (error) => result.pageErrors.push(String(error)));
  page.setDefaultTimeout(30000);
  await vendor(page);
  await operator(page);
} catch (error) {
  result.error = String(error && error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(result) + '\n');

function step(name) { result.steps.push(name); }

/** axe-core on the page as it is now (evaluated through the debugging protocol, which the CSP does not govern). */
async function check(page, name) {
  await page.evaluate(axeSource);
  const report = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  await page.screenshot({ path: path.join(input.artifacts, `console-${name}.png`), fullPage: true });
  result.pages[name] = { serious, title: await page.title() };
}

async function go(page, hash, heading) {
  await page.click(`nav a[href="#/${hash}"]`);
  await page.waitForSelector(`h1:text-is("${heading}")`);
}

async function previewDigest(page) {
  // The still's pixels, read through a canvas (the page's CSP lets nothing fetch its blob: URL).
  return page.evaluate(async () => {
    const image = document.getElementById('preview-image');
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0;
    for (let i = 0; i < pixels.length; i += 1) { sum = (sum * 31 + pixels[i]) % 1000000007; }
    return { drawn: image.dataset.drawn, bytes: String(sum), length: pixels.length };
  });
}

async function vendor(page) {
  const answer = await page.goto(`${input.base}/console/`, { waitUntil: 'load' });
  result.status = answer.status();
  result.csp = answer.headers()['content-security-policy'];
  await page.waitForSelector('#vendor-sign-in');
  await check(page, 'sign-in');

  // A wrong secret shows the API's message.
  await page.fill('#vendor-sign-in input[name="client_id"]', input.clientId);
  await page.fill('#vendor-sign-in input[name="client_secret"]', 'wrong');
  await page.click('#vendor-sign-in button[type="submit"]');
  await page.waitForSelector('#vendor-sign-in .error:not([hidden])');
  result.wrongSecretMessage = await page.locator('#vendor-sign-in .error').textContent();
  await page.fill('#vendor-sign-in input[name="client_secret"]', input.secret);
  await page.click('#vendor-sign-in button[type="submit"]');
  await page.waitForSelector('h1:text-is("Home")');
  await page.waitForSelector('#stat-renders');
  await page.waitForSelector('#stat-views');
  result.viewsShown = await page.locator('#stat-views b').textContent();
  step('signed in');
  await check(page, 'home');
  // The stream player the console serves itself (hls.js, no CDN) loads under the console's CSP and can play here.
  result.hlsSupported = await page.evaluate(async () => {
    const app = [...document.querySelectorAll('script[type="module"]')].map((script) => script.src).find(Boolean);
    const { default: Hls } = await import(new URL('../vendor/hls.light.min.mjs', app).href);
    return Hls.isSupported();
  });

  // A template built in the editor; its preview follows the text typed in the generated form.
  await go(page, 'templates', 'Templates');
  await check(page, 'templates');
  await page.click('a[href="#/templates/new"]');
  await page.fill('#definition', '{ "broken": ');
  await page.waitForFunction(() => document.getElementById('definition-error').textContent.includes('line'));
  result.jsonProblem = await page.locator('#definition-error').textContent();
  const definition = {
    'use-case-id': input.useCase, name: 'Console card',
    canvas: { width: 320, height: 240, fps: 25, background: '#1d3557' },
    fields: [{ name: 'name', required: true, 'max-length': 40 }],
    segments: [{ id: 'hello', duration: 2, background: { color: '#1d3557' },
      layers: [{ id: 't', type: 'text', text: 'Hello {{name}}', size: 28, color: '#ffffff', x: 'center', y: 'center' }] }],
  };
  await page.fill('#definition', JSON.stringify(definition, null, 2));
  await page.click('#save-template');
  await page.waitForSelector('#preview-image:not([hidden])');
  await page.waitForFunction(() => (document.getElementById('preview-image').dataset.drawn || '').includes('Ada'));
  const before = await previewDigest(page);
  await page.fill('input[data-field="name"]', 'Grace Hopper');
  await page.waitForFunction(() => (document.getElementById('preview-image').dataset.drawn || '').includes('Grace Hopper'));
  const after = await previewDigest(page);
  result.preview = { before: before.drawn, after: after.drawn, changed: before.bytes !== after.bytes || before.length !== after.length };
  result.templateId = page.url().split('#/templates/')[1];
  step('previewed');
  await check(page, 'template-editor');

  // A test render, followed live, then played to its end.
  await page.click('#test-render');
  await page.waitForFunction(() => ['SUCCESS', 'FAILURE'].includes(document.getElementById('test-status')?.dataset.status),
    null, { timeout: 180000 });
  result.renderStatus = await page.locator('#test-status').getAttribute('data-status');
  result.streamPlayer = await page.locator('#test-video').getAttribute('data-player');
  result.renderMessage = await page.locator('#test-status').textContent();
  await page.waitForFunction(() => document.getElementById('test-video').readyState >= 1, null, { timeout: 30000 });
  result.poster = await page.evaluate(() => document.getElementById('test-video').poster);
  await page.evaluate(() => { const v = document.getElementById('test-video'); v.muted = true; return v.play(); });
  await page.waitForFunction(() => document.getElementById('test-video').ended, null, { timeout: 60000 });
  result.videoEnded = true;
  result.requestId = (await page.locator('#test-watch a').first().getAttribute('href')).split('/').pop();
  step('played');
  await check(page, 'test-render');

  await go(page, 'requests', 'Requests');
  await page.waitForSelector(`a[href="#/requests/${result.requestId}"]`);
  await check(page, 'requests');
  await page.click(`a[href="#/requests/${result.requestId}"]`);
  await page.waitForSelector('#st-h + p .badge');
  await page.waitForSelector('#request-timeline li');
  result.timeline = await page.locator('#request-timeline li').allTextContents();
  await check(page, 'request');

  // A 3-row batch to 100 %, its output downloaded.
  await go(page, 'batch', 'Batch');
  await page.waitForSelector(`#batch-template option[value="${result.templateId}"]`, { state: 'attached' });
  await page.setInputFiles('#batch-file', { name: 'console.csv', mimeType: 'text/csv', buffer: Buffer.from(input.csv) });
  await page.selectOption('#batch-template', result.templateId);
  await page.fill('#batch-campaign', input.useCase);
  await page.click('#batch-start');
  await page.waitForFunction(() => ['COMPLETED', 'FAILED'].includes(document.getElementById('task-text')?.dataset.status),
    null, { timeout: 240000 });
  result.batch = { status: await page.locator('#task-text').getAttribute('data-status'),
    percent: await page.locator('#task-text').getAttribute('data-percent'),
    progress: await page.evaluate(() => { const bar = document.getElementById('task-progress'); return [bar.value, bar.max]; }) };
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#task-download')]);
  result.batch.output = await readFile(await download.path(), 'utf8');
  step('batch');
  await check(page, 'batch');

  // A failed test delivery, replayed: its second attempt shows.
  await go(page, 'webhooks', 'Webhooks');
  await page.waitForSelector('#webhook-url');
  await check(page, 'webhooks');
  await page.fill('#webhook-url', input.hook);
  await page.click('form[aria-labelledby="ep-h"] button[type="submit"]');
  await page.waitForFunction(() => document.getElementById('live').textContent === 'Endpoint saved');
  await page.click('#send-test');
  await page.waitForSelector('#webhook-result p');
  result.testResult = await page.locator('#webhook-result').textContent();
  const webhookId = result.testResult.match(/msg_[0-9a-f]{32}/)[0];
  await page.waitForSelector(`[data-webhook-id="${webhookId}"]`);
  result.attemptsBefore = await page.locator(`[data-webhook-id="${webhookId}"]`).getAttribute('data-attempts');
  await page.click(`[data-webhook-id="${webhookId}"] [data-replay]`);
  await page.waitForSelector(`[data-webhook-id="${webhookId}"][data-attempts="2"]`);
  result.attemptsAfter = '2';
  result.attemptLines = await page.locator(`[data-webhook-id="${webhookId}"] li.attempt`).allTextContents();
  result.webhookId = webhookId;
  step('replayed');
  await check(page, 'webhook-replayed');

  // A try-on from two files uploaded into the vendor's own storage, followed to its end beside its inputs.
  await go(page, 'try-on', 'Try-on');
  await page.setInputFiles('#model-file', { name: 'model photo.png', mimeType: 'image/png', buffer: Buffer.from(input.modelPng, 'base64') });
  await page.setInputFiles('#garment-file', { name: 'shirt.png', mimeType: 'image/png', buffer: Buffer.from(input.garmentPng, 'base64') });
  await page.click('form[aria-label="New try-on"] button[type="submit"]');
  await page.waitForFunction(() => ['SUCCESS', 'FAILURE'].includes(document.getElementById('tryon-result')?.dataset.status),
    null, { timeout: 120000 });
  result.tryOn = {
    id: await page.locator('#tryon-result').getAttribute('data-request'),
    status: await page.locator('#tryon-result').getAttribute('data-status'),
    text: await page.locator('#tryon-result').textContent(),
  };
  step('tried on');
  await check(page, 'try-on');
  await go(page, 'campaigns', 'Campaigns');
  await page.waitForSelector('#campaign-id');
  // A campaign scheduled to render on first view: a window from now to tomorrow, shown in the list with its render.
  const local = (time) => new Date(time - new Date().getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  await page.fill('#campaign-id', input.campaign);
  await page.fill('#campaign-start', local(Date.now() + 3600000));
  await page.fill('#campaign-end', local(Date.now() + 2 * 86400000));
  await page.selectOption('#campaign-render', 'on-view');
  await page.click('form[aria-labelledby="sched-h"] button[type="submit"]');
  const row = page.locator('tbody tr', { hasText: input.campaign });
  await row.getByRole('cell', { name: 'on-view', exact: true }).waitFor();
  result.campaignRow = await row.innerText();
  step('campaign scheduled');
  await check(page, 'campaigns');

  // Narrow and dark: readable at 360 px with prefers-color-scheme: dark.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await go(page, 'home', 'Home');
  await page.waitForSelector('#stat-renders');
  result.narrowOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await check(page, 'home-dark-360');
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  await page.click('#sign-out');
  await page.waitForSelector('#vendor-sign-in');
  result.storageAfterSignOut = await page.evaluate(() => localStorage.length + sessionStorage.length + document.cookie.length);
  step('signed out');
}

async function operator(page) {
  await page.fill('#operator-sign-in input[name="admin_token"]', input.adminToken);
  await page.click('#operator-sign-in button[type="submit"]');
  await page.waitForSelector('h1:text-is("Operator")');
  const name = `console vendor ${Date.now()}`;
  await page.fill('#vendor-name', name);
  await page.fill('#vendor-ips', '127.0.0.1, 10.0.0.0/8');
  await page.click('#vendor-create');
  await page.waitForSelector('[data-secret="client-secret"]');
  result.onboarded = {
    clientId: await page.locator('[data-secret="client-id"]').textContent(),
    secret: await page.locator('[data-secret="client-secret"]').textContent(),
  };
  await page.waitForSelector(`[data-revoke="${result.onboarded.clientId}"]`);
  step('onboarded');
  // The dead letters of every vendor load (a table, or the empty message; an API error would show its box instead).
  await page.waitForFunction(() => /No dead letters|Replay/.test(document.querySelector('#dead-letters')?.textContent || ''));
  step('dead-letters');
  await check(page, 'operator');
  await page.click(`[data-revoke="${result.onboarded.clientId}"]`);
  await page.waitForSelector('dialog[open]');
  await check(page, 'operator-confirm');
  await page.click('#confirm-yes');
  await page.waitForSelector(`[data-revoke="${result.onboarded.clientId}"]`, { state: 'detached' });
  step('revoked');
}
