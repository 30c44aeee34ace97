// What a new vendor's first visit to the console finds (issue 39), in Debian's Chromium (playwright-core and axe-core
// from build/node), with no stack: the console's files are served from the folder and the API is faked inside the
// browser (page.route) with answers shaped as docs/openapi.yaml says, so a page that reads a field the API does not
// have shows it here. The clock is fixed at 2026-11-30T03:00:00Z in America/Los_Angeles (the evening of the 29th
// there): the API counts usage by UTC day, so "up to today" with an exclusive end means to=2026-12-01.
// Each check is one entry of `checks` ({name, ok, detail}); the Java runner (ConsoleFirstVisitTest) fails on any
// that is not ok. Checks:
// - render panel: a template with renditions (an object keyed by output name) ends its test render with a link per
//   rendition, no error, and no more status polls (the video is not loaded again every 3 s);
// - usage range: Home's GET /usage, the Usage page's and the operator's GET /admin/usage end tomorrow (UTC);
// - chart labels: the daily charts are labelled with the day of each period's `start`;
// - Usage page: in the navigation, a chart per day with its labels, a table per day and per kind;
// - header: the vendor's name (GET /account), never "Vendor <uuid>";
// - plural: a delivery with one attempt says "1 attempt";
// - axe: every page at 1280 px and 360 px, light and dark, has no serious or critical violation.
// Prints one JSON line: {checks, pageErrors}. Usage: node console-first-visit.mjs <console folder>
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleFiles, runChecks } from './console-harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../../build/node/package.json'));
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const consoleDir = path.resolve(process.argv[2] || path.join(here, '../../../../console'));
const samplesDir = path.join(here, '../../../../docs/samples');

// https: a secure context like the gateway's (crypto.randomUUID, used by the test render, exists only there)
const ORIGIN = 'https://console.test';
const STORE = 'http://store.test';
const NOW = '2026-11-30T03:00:00.000Z';
const TIMEZONE = 'America/Los_Angeles';
const CLIENT = '3d6f0a2e-8c1b-4e7a-9f2d-5b4c3a2e1f0d';
const VENDOR_NAME = 'Acme Shoes';
const TEMPLATE = 'a3c9e3f2-5b1d-4c7e-9a2b-1f0e8d7c6b5a';
const REQUEST = 'c0ffee00-1234-4abc-9def-0123456789ab';

const checks = [];
const pageErrors = [];
const check = (name, ok, detail = '') => checks.push({ name, ok: Boolean(ok), detail: ok ? '' : String(detail).slice(0, 2000) });
const consoleFile = consoleFiles(consoleDir);

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const metrics = (n) => ({ requests: { succeeded: n, failed: 0 }, renders: { succeeded: n, failed: 0 }, 'video-seconds': 10 * n,
  'render-seconds': 1.5 * n, 'batch-tasks': { completed: 0, failed: 0 }, 'batch-rows': 0, 'try-ons': { succeeded: 0, failed: 0 },
  'storage-bytes': 1000 * n, 'webhook-deliveries': { attempts: n, delivered: n, failed: 0 } });
/** GET /usage as the API answers it: one period per day of [from, to), each with its `start`. */
function usage(query) {
  const from = query.get('from') || '2026-11-01';
  const to = query.get('to') || '2026-12-01';
  const periods = [];
  for (let day = new Date(`${from}T00:00:00Z`); day < new Date(`${to}T00:00:00Z`); day.setUTCDate(day.getUTCDate() + 1)) {
    const start = day.toISOString().slice(0, 10);
    periods.push(Object.assign({ start }, metrics(start === '2026-11-30' ? 5 : 1)));
  }
  return { 'client-id': CLIENT, from, to, granularity: 'day', totals: metrics(periods.length + 4), periods };
}
const template = { 'template-id': TEMPLATE, name: 'Showcase', 'use-case-id': 'showcase', version: 1, 'owner-client-id': CLIENT,
  'required-fields': ['name'], 'duration-seconds': 6, width: 1280, height: 720, 'created-at': NOW,
  fields: [{ name: 'name', required: true, 'max-length': 40 }], definition: { 'use-case-id': 'showcase' } };
const delivery = { 'webhook-id': 'msg_2a', status: 'DELIVERED', type: 'video.ready', 'service-request-id': REQUEST,
  'created-at': NOW, 'attempt-count': 1, attempts: [{ attempt: 1, 'attempted-at': NOW, 'status-code': 200, 'latency-ms': 12, trigger: 'event' }] };

let statusCalls = 0;
const calls = [];
const ANSWERS = {
  'POST /auth/token': () => ({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }),
  'GET /account': () => ({ 'client-id': CLIENT, name: VENDOR_NAME, 'webhook-url': null, 'allowed-ips': [], 'created-at': NOW }),
  'GET /media/requests': () => ({ items: [
    { 'service-request-id': REQUEST, 'client-request-id': 'order-1', status: 'SUCCESS', 'use-case-id': 'showcase',
      'template-version': 1, 'created-at': '2026-11-30T02:00:00Z', 'ended-at': '2026-11-30T02:00:04Z', 'render-seconds': 3.2 },
    { 'service-request-id': 'b0ffee00-1234-4abc-9def-0123456789ab', 'client-request-id': 'order-2', status: 'FAILURE',
      'use-case-id': 'showcase', 'created-at': '2026-11-30T02:10:00Z', message: 'the image could not be read' }], 'next-cursor': null }),
  'GET /templates': () => [template],
  'GET /templates/{id}': () => template,
  'POST /templates/{id}/preview': () => PNG,
  'GET /analytics/templates/{id}': () => ({ status: 404 }),
  'GET /analytics/videos/{id}': () => ({ totals: { views: 2, 'unique-viewers': 1 } }),
  'GET /usage': (query) => usage(query),
  'POST /media/demo': () => ({ 'service-request-id': REQUEST, message: 'accepted' }),
  'GET /status/{id}': () => {
    statusCalls += 1;
    return statusCalls === 1 ? { status: 'PROCESSING', message: 'rendering' } : {
      status: 'SUCCESS', message: 'video ready', 'video-url': `${STORE}/video.mp4`, 'image-url': `${STORE}/thumb.jpg`,
      'share-url': `${ORIGIN}/v/abc`, renditions: { landscape: `${STORE}/video.mp4`, square: `${STORE}/square.mp4`,
        vertical: `${STORE}/vertical.mp4` } };
  },
  'GET /media/requests/{id}/events': () => ({ items: [{ at: NOW, kind: 'status', status: 'SUCCESS', message: 'video ready' }] }),
  'GET /webhooks/deliveries': () => ({ items: [delivery], 'next-cursor': null }),
  'GET /webhooks/endpoint': () => ({ url: 'https://hooks.acme.test/pmedia', 'event-types': ['video.ready'],
    'available-event-types': ['video.ready', 'video.failed', 'batch.task.ended'] }),
  'GET /media/tasks': () => ({ items: [], 'next-cursor': null }),
  'GET /vton/requests': () => ({ items: [], 'next-cursor': null }),
  'GET /campaigns': () => ({ items: [], 'next-cursor': null }),
  'GET /admin/clients': () => [{ name: VENDOR_NAME, 'client-id': CLIENT, 'allowed-ips': [], 'created-at': NOW },
    { name: 'Globex', 'client-id': 'b4a1c2d3-0000-4000-8000-000000000002', 'allowed-ips': ['10.0.0.0/8'], 'created-at': NOW }],
  'GET /admin/templates': () => [],
  'GET /admin/fonts': () => [],
  'GET /admin/usage': (query) => ({ from: query.get('from'), to: query.get('to'), granularity: 'day', items: [usage(query)] }),
  'GET /admin/webhooks/dead-letters': () => ({ items: [{ 'client-id': CLIENT, delivery: Object.assign({}, delivery,
    { status: 'EXHAUSTED', 'attempt-count': 8, 'last-error': 'connection refused' }) }], 'next-cursor': null }),
};

function matchOp(method, pathname) {
  const segments = pathname.split('/');
  for (const op of Object.keys(ANSWERS)) {
    const [opMethod, opPath] = op.split(' ');
    const parts = opPath.split('/');
    if (opMethod === method && parts.length === segments.length && parts.every((p, i) => p === '{id}' || p === segments[i])) { return op; }
  }
  return null;
}

async function serve(route) {
  const request = route.request();
  const url = new URL(request.url());
  if (url.origin === ORIGIN && (url.pathname === '/console/' || url.pathname.startsWith('/console/test/'))) {
    const name = url.pathname === '/console/' ? 'index.html' : url.pathname.slice('/console/test/'.length);
    const file = consoleFile(name);
    return route.fulfill(file ? { status: 200, ...file } : { status: 404, body: 'no such file' });
  }
  if (url.origin !== ORIGIN) { return route.fulfill({ status: 404, headers: { 'Access-Control-Allow-Origin': '*' }, body: '' }); }
  if (url.pathname.startsWith('/docs/gallery/')) {
    // the gateway's gallery (GalleryTest checks it serves docs/samples as they are): the files themselves here
    const name = url.pathname.slice('/docs/gallery/'.length);
    const file = path.join(samplesDir, name);
    if (!/^[a-z0-9-]+\.(png|json)$/.test(name) || !fs.existsSync(file)) { return route.fulfill({ status: 404, body: '' }); }
    return route.fulfill({ status: 200, contentType: name.endsWith('.png') ? 'image/png' : 'application/json', body: fs.readFileSync(file) });
  }
  const op = matchOp(request.method(), url.pathname);
  calls.push({ op: op || `${request.method()} ${url.pathname}`, query: Object.fromEntries(url.searchParams) });
  const answer = op && ANSWERS[op](url.searchParams);
  if (!answer || answer.status === 404) {
    return route.fulfill({ status: 404, contentType: 'application/json',
      body: JSON.stringify({ error: true, code: 'NOT_FOUND', message: 'not found', timestamp: NOW }) });
  }
  return route.fulfill(Buffer.isBuffer(answer) ? { status: 200, contentType: 'image/png', body: answer }
    : { status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
}

async function newPage(browser, { width = 1280, scheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, timezoneId: TIMEZONE,
    locale: 'en-US' });
  await context.route('**/*', serve);
  const page = await context.newPage();
  await page.clock.setFixedTime(new Date(NOW));
  page.on('pageerror', (error) => pageErrors.push(`${width} ${scheme} ${page.url()}: ${String(error).slice(0, 300)}`));
  return page;
}

async function signIn(page, who) {
  await page.goto(`${ORIGIN}/console/`);
  if (who === 'operator') {
    await page.fill('#operator-sign-in input[name="admin_token"]', 'admin-token');
    await page.click('#operator-sign-in button[type="submit"]');
  } else {
    await page.fill('#vendor-sign-in input[name="client_id"]', CLIENT);
    await page.fill('#vendor-sign-in input[name="client_secret"]', 'secret');
    await page.click('#vendor-sign-in button[type="submit"]');
  }
  await page.waitForSelector('nav a[aria-current="page"]');
}

async function go(page, hash) {
  await page.evaluate((target) => { location.hash = target; }, hash);
  await page.waitForLoadState('load');
  await page.waitForFunction(() => !document.querySelector('main')?.textContent.includes('Loading…'), null, { timeout: 5000 }).catch(() => {});
  await page.waitForTimeout(400);
}

const lastCall = (op) => [...calls].reverse().find((call) => call.op === op);
const chartLabels = (page, selector) => page.$$eval(`${selector} svg.chart text`, (texts) => texts.map((t) => t.textContent));

async function vendorChecks(browser) {
  const page = await newPage(browser);
  await signIn(page, 'vendor');
  await page.waitForTimeout(800);

  const who = await page.textContent('#who-name');
  check('header: the vendor\'s name', who.trim() === VENDOR_NAME, `the header says "${who}"`);

  const homeUsage = lastCall('GET /usage');
  check('usage range: Home asks for this month up to tomorrow (UTC), the end being exclusive',
    homeUsage?.query.from === '2026-11-01' && homeUsage?.query.to === '2026-12-01', JSON.stringify(homeUsage));
  const homeLabels = await chartLabels(page, 'section[aria-labelledby="usage-h"]');
  check('chart labels: Home\'s daily chart is labelled with each period\'s day', homeLabels.length === 30
    && homeLabels[0] === '1' && homeLabels[29] === '30', JSON.stringify(homeLabels));

  const nav = await page.$$eval('nav a', (links) => links.map((a) => [a.textContent, a.getAttribute('href')]));
  check('Usage page: in the menu', nav.some(([text, href]) => text === 'Usage' && href === '#/usage'), JSON.stringify(nav));
  await go(page, '#/usage');
  const pageUsage = lastCall('GET /usage');
  check('usage range: the Usage page asks up to tomorrow (UTC)', pageUsage?.query.to === '2026-12-01', JSON.stringify(pageUsage));
  const usageLabels = await chartLabels(page, 'main');
  const charts = await page.$$eval('main svg.chart', (svgs) => svgs.map((svg) => svg.getAttribute('aria-label')));
  check('Usage page: charts per day, labelled with the days and named by what they count',
    charts.length >= 2 && usageLabels.includes('30') && charts.every((label) => /30 \d/.test(label) && /per day/i.test(label)),
    JSON.stringify({ charts, usageLabels }));
  const headings = await page.$$eval('main table th', (ths) => ths.map((th) => th.textContent));
  const rows = await page.$$eval('main table tbody tr', (trs) => trs.length);
  check('Usage page: a table per day and per kind', ['Day', 'Requests', 'Renders', 'Video seconds', 'Batch rows', 'Try-ons',
    'Webhook attempts'].every((heading) => headings.includes(heading)) && rows >= 30, JSON.stringify({ headings, rows }));

  await go(page, '#/webhooks');
  const attemptsText = (await page.$$eval('#deliveries article p', (ps) => ps.map((p) => p.textContent))).join('\n');
  check('plural: a delivery with one attempt says "1 attempt"', /\b1 attempt\b/.test(attemptsText) && !/\b1 attempts\b/.test(attemptsText),
    attemptsText);

  await go(page, '#/templates');
  await page.waitForSelector('#gallery figure.sample img', { timeout: 5000 }).catch(() => {});
  // the sheets load lazily: each is scrolled to, as a reader would, and decoded
  await page.$$eval('#gallery figure.sample img', (images) => Promise.all(images.map((img) => {
    img.scrollIntoView();
    return img.decode().catch(() => {});
  })));
  const samples = JSON.parse(fs.readFileSync(path.join(samplesDir, 'gallery.json'), 'utf8'));
  const figures = await page.$$eval('#gallery figure.sample', (all) => all.map((figure) => {
    const img = figure.querySelector('img');
    return { useCase: figure.dataset.useCase, loaded: img.complete && img.naturalWidth > 0, alt: img.alt,
      link: figure.querySelector('h3 a')?.getAttribute('href') || null };
  }));
  check('gallery: every sample\'s contact sheet shown, with its alt text, the vendor\'s templates linked',
    figures.length === samples.length && figures.every((f) => f.loaded && f.alt.includes('frames'))
    && figures.find((f) => f.useCase === 'showcase')?.link === `#/templates/${TEMPLATE}`, JSON.stringify(figures));

  await go(page, `#/templates/${TEMPLATE}`);
  const before = calls.filter((call) => call.op === 'POST /templates/{id}/preview').length;
  await page.click('#preview-play');
  await page.waitForFunction(() => document.querySelector('#preview-play')?.getAttribute('aria-pressed') === 'false',
    null, { timeout: 15000 }).catch(() => {});
  const played = calls.filter((call) => call.op === 'POST /templates/{id}/preview').length - before;
  const lastTime = Number(await page.$eval('#preview-time', (input) => input.value));
  check('preview: Play draws frame after frame from the server through the video', played >= 3
    && lastTime > 1, JSON.stringify({ played, lastTime }));

  await page.click('#test-render');
  await page.waitForSelector('#test-status[data-status="SUCCESS"]', { timeout: 10000 }).catch(() => {});
  const atSuccess = statusCalls;
  await page.waitForTimeout(4500);
  const renditions = await page.$$eval('#test-watch a', (links) => links.map((a) => [a.textContent, a.getAttribute('href')]));
  const watchError = await page.$eval('#test-watch .error', (box) => (box.hidden ? '' : box.textContent)).catch(() => '');
  check('render panel: a rendition link per output name, no error', ['landscape', 'square', 'vertical'].every((name) =>
    renditions.some(([text, href]) => text.includes(name) && href === `${STORE}/${name === 'landscape' ? 'video' : name}.mp4`))
    && !watchError, JSON.stringify({ renditions, watchError }));
  check('render panel: no status poll after SUCCESS (the video is not loaded again)', atSuccess === 2 && statusCalls === atSuccess,
    `status polled ${statusCalls} times, ${atSuccess} at SUCCESS`);
  await page.context().close();
}

async function operatorChecks(browser) {
  const page = await newPage(browser);
  await signIn(page, 'operator');
  await page.waitForTimeout(800);
  const adminUsage = lastCall('GET /admin/usage');
  check('usage range: the operator asks for this month up to tomorrow (UTC)',
    adminUsage?.query.from === '2026-11-01' && adminUsage?.query.to === '2026-12-01', JSON.stringify(adminUsage));
  await page.context().close();
}

const VENDOR_ROUTES = ['#/home', '#/templates', `#/templates/${TEMPLATE}`, '#/templates/new', '#/requests', `#/requests/${REQUEST}`,
  '#/batch', '#/webhooks', '#/try-on', '#/campaigns', '#/usage'];

async function axeChecks(browser) {
  for (const width of [1280, 360]) {
    for (const scheme of ['light', 'dark']) {
      for (const who of ['vendor', 'operator']) {
        const page = await newPage(browser, { width, scheme });
        await signIn(page, who);
        const routes = who === 'vendor' ? VENDOR_ROUTES : ['#/operator'];
        for (const route of routes) {
          await go(page, route);
          await page.evaluate(axeSource);
          const violations = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] })
            .then((report) => report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.failureSummary || ''}`).join(' | ')}`)));
          check(`axe: ${route} at ${width} px ${scheme}`, violations.length === 0, violations.join('\n'));
        }
        await page.context().close();
      }
    }
  }
}

await runChecks(checks, pageErrors, vendorChecks, operatorChecks, axeChecks);
