// The console's routes with hostile fragments (issue 33), in Debian's Chromium (playwright-core from build/node), with
// no stack: the console's files are served from the folder and every API call is answered by a fake API inside the
// browser (page.route), which records it. Signed in as a vendor and as the operator, it navigates every page the
// navigation offers with every hostile value in the fragment, fills every text field with one too, chooses a file in
// every file field, clicks every button (a confirmation dialog's too), follows every in-console link the page shows,
// and asserts:
// - every request to the API is an operation of the page shown (OPS below: a new page or a new call must be listed),
//   each value in its path exactly one segment that decodes to a value the page was given (the fragment's, a field's,
//   or an id the fake API answered: those are hostile too); nothing goes to another origin but the store;
// - every in-console link is '#/<page>' or '#/<page>/<one segment>'; no href or src holds a javascript: or data: URL;
// - no uncaught error; every operation with an id in its path was exercised at least once.
// The report's own reproduction runs first as a viewer meets it: a fresh load of the crafted link, sign-in, "Cancel
// task". Prints one JSON line: {visits, requests, failures, pageErrors, reproduction, unexercised}.
// Usage: node console-routes.mjs <console folder>
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleFiles, launchChromium } from './console-harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consoleDir = path.resolve(process.argv[2] || path.join(here, '../../../../console'));

const ORIGIN = 'http://console.test';
const STORE = 'http://store.test';
const CLIENT = 'vendor-1';

/** What a crafted link puts after '#/<page>/': raw fragment text, as it would be in the link. */
const HOSTILE = [
  '..%2F..%2F..%2Fwebhooks%2Fendpoint%2Ftest',
  '..%2F..%2Fadmin%2Fclients%2Fvendor-2%2Frotate-secret',
  '../../../webhooks/endpoint/rotate-secret',
  '..', '.', '%2e%2e', '.%2E', '%252e%252e',
  '..%5C..%5C..%5Cwebhooks%5Cendpoint%5Ctest',
  '?a=b', '%3Fa%3Db', 'x#y', '%2F%2Fevil.test%2Fx', 'a%09b%0Ac%20%00',
  '%E0%A4%A',
  encodeURIComponent('ünï/códe ✓ 名前 \u202e\u2028'),
  'x'.repeat(3000),
];
/** Typed into every text field. */
const TYPED = '../../webhooks/endpoint/test?x=1#y';
/** Ids the fake API answers with: hostile too (an API value must be encoded like a fragment's). */
const IDS = {
  task: '../../../webhooks/endpoint/rotate-secret',
  request: '../../webhooks/endpoint/test?x=1#y',
  template: '..\\..\\webhooks\\endpoint\\test',
  templateDots: '..',
  webhook: 'msg"] , body, [x="..',
  client: '../../webhooks/endpoint/test',
  vton: '%2e%2e/%2e%2e/webhooks',
};

const COMMON = ['POST /auth/token', 'GET /account'];
/** The API operations of each page (docs/console.md, "Pages"). */
const OPS = {
  home: ['GET /media/requests', 'GET /templates', 'GET /analytics/templates/{id}', 'GET /usage'],
  templates: ['GET /templates', 'GET /templates/{id}', 'POST /templates', 'POST /templates/{id}/preview',
    'POST /media/demo', 'GET /status/{id}'],
  requests: ['GET /media/requests', 'GET /status/{id}', 'GET /webhooks/deliveries', 'GET /media/requests/{id}/events',
    'GET /analytics/videos/{id}'],
  batch: ['GET /templates', 'GET /media/tasks', 'POST /media/task/uploads', 'POST /media/task/create',
    'GET /media/task/status/{id}', 'POST /media/task/cancel/{id}'],
  webhooks: ['GET /webhooks/endpoint', 'PUT /webhooks/endpoint', 'POST /webhooks/endpoint/rotate-secret',
    'POST /webhooks/endpoint/test', 'GET /webhooks/deliveries', 'POST /webhooks/deliveries/{id}/replay',
    'POST /webhooks/deliveries/recover'],
  'try-on': ['POST /media/task/uploads', 'POST /vton/request', 'GET /vton/status/{id}', 'GET /vton/requests'],
  campaigns: ['GET /campaigns', 'GET /media/tasks', 'POST /campaigns/{id}/schedule'],
  usage: ['GET /usage'],
  operator: ['GET /admin/clients', 'POST /admin/clients', 'PATCH /admin/clients/{id}', 'DELETE /admin/clients/{id}',
    'POST /admin/clients/{id}/rotate-secret', 'GET /admin/templates', 'GET /admin/fonts', 'GET /admin/usage',
    'GET /admin/webhooks/dead-letters', 'POST /admin/webhooks/dead-letters/{id}/replay'],
};

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const now = new Date().toISOString();
const template = (id) => ({ 'template-id': id, name: 'Card', 'use-case-id': 'card', version: 1, 'owner-client-id': CLIENT,
  'required-fields': ['name'], 'duration-seconds': 2, width: 320, height: 240, 'created-at': now,
  fields: [{ name: 'name', required: true, 'max-length': 40 }], definition: { 'use-case-id': 'card' } });
/** Hostile URLs too: a link or source may only be http(s), blob or relative. */
const STATUS = (id) => ({ 'service-request-id': id, status: 'SUCCESS', message: 'done', 'video-url': `${STORE}/v.mp4`,
  'image-url': 'javascript:alert(1)', 'share-url': 'javascript:alert(document.domain)',
  'captions-url': 'data:text/vtt,WEBVTT', renditions: { r: 'javascript:alert(2)' } });

/** The fake API: op -> (decoded id) -> body. */
const ANSWERS = {
  'POST /auth/token': () => ({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }),
  'GET /account': () => ({ 'client-id': CLIENT, name: TYPED, 'allowed-ips': [], 'created-at': now }),
  'GET /media/requests': () => ({ items: [{ 'service-request-id': IDS.request, 'client-request-id': 'c-1', status: 'FAILURE',
    'created-at': now, 'use-case-id': 'card', message: 'failed' }] }),
  'GET /templates': () => [template(IDS.template), template(IDS.templateDots)],
  'GET /analytics/templates/{id}': () => ({ totals: { views: 1, completions: 1, 'unique-viewers': 1, 'cta-clicks': 0 } }),
  'GET /usage': () => ({ from: '2026-11-01', to: '2026-11-29', totals: { videos: 1 }, periods: [] }),
  'GET /templates/{id}': (id) => template(id),
  'POST /templates': () => ({ 'template-id': IDS.template, version: 2 }),
  'POST /templates/{id}/preview': () => PNG,
  'POST /media/demo': () => ({ 'service-request-id': IDS.request }),
  'GET /status/{id}': (id) => STATUS(id),
  'GET /webhooks/deliveries': () => ({ items: [{ 'webhook-id': IDS.webhook, status: 'FAILED', type: 'video.ready',
    'created-at': now, 'attempt-count': 1, attempts: [{ attempt: 1, 'attempted-at': now, 'status-code': 500 }] }] }),
  'GET /media/requests/{id}/events': () => ({ items: [{ at: now, kind: 'status', status: 'SUCCESS', message: 'done' }] }),
  'GET /analytics/videos/{id}': () => ({ totals: { views: 1 } }),
  'GET /media/tasks': () => ({ items: [{ 'task-id': IDS.task, 'file-name': 'f.csv', status: 'IN PROGRESS', processed: 1,
    'total-count': 3, 'created-at': now, 'campaign-id': TYPED }] }),
  'POST /media/task/uploads': () => ({ 'upload-url': `${STORE}/upload`, 'file-path': 's3://inputs/vendor-1/f.csv' }),
  'POST /media/task/create': () => ({ 'task-id': IDS.task, message: 'created' }),
  'GET /media/task/status/{id}': (id) => ({ 'task-id': id, status: 'IN PROGRESS', processed: 1, 'total-count': 3 }),
  'POST /media/task/cancel/{id}': () => ({ message: 'cancelled' }),
  'GET /webhooks/endpoint': () => ({ url: '', 'event-types': [], 'available-event-types': ['video.ready'] }),
  'PUT /webhooks/endpoint': () => ({ url: 'https://hooks.test/x', 'event-types': [], 'available-event-types': ['video.ready'] }),
  'POST /webhooks/endpoint/rotate-secret': () => ({ 'webhook-secret': 'whsec_x', 'previous-valid-until': now }),
  'POST /webhooks/endpoint/test': () => ({ delivered: false, 'webhook-id': IDS.webhook, error: 'refused' }),
  'POST /webhooks/deliveries/{id}/replay': () => ({}),
  'POST /webhooks/deliveries/recover': () => ({ recovering: 0 }),
  'POST /vton/request': () => ({ 'request-id': IDS.vton }),
  'GET /vton/status/{id}': () => ({ status: 'SUCCESS', 'generated-output': 'javascript:alert(3)' }),
  'GET /vton/requests': () => ({ items: [] }),
  'GET /campaigns': () => ({ items: [{ campaign_id: TYPED, status: 'SCHEDULED', start_time: now, end_time: now }] }),
  'POST /campaigns/{id}/schedule': () => ({}),
  'GET /admin/clients': () => [{ name: 'Vendor two', 'client-id': IDS.client, 'allowed-ips': [], 'created-at': now }],
  'POST /admin/clients': () => ({ 'client-id': IDS.client, 'client-secret': 'pms_x' }),
  'PATCH /admin/clients/{id}': () => ({}),
  'DELETE /admin/clients/{id}': () => ({}),
  'POST /admin/clients/{id}/rotate-secret': () => ({ 'client-secret': 'pms_y' }),
  'GET /admin/templates': () => [],
  'GET /admin/fonts': () => [],
  'GET /admin/usage': () => ({ items: [] }),
  'GET /admin/webhooks/dead-letters': () => ({ items: [{ 'client-id': IDS.client, delivery: { 'webhook-id': IDS.webhook,
    type: 'video.ready', 'attempt-count': 8, 'created-at': now } }] }),
  'POST /admin/webhooks/dead-letters/{id}/replay': () => ({ delivery: { status: 'DELIVERED' } }),
};

/** The route's values as the console reads them: each segment decoded once, a malformed one as it is. */
function routeParts(hash) {
  return hash.replace(/^#\/?/, '').split('/').map((part) => { try { return decodeURIComponent(part); } catch { return part; } });
}

/** The op a method and raw path are, with the decoded value of each {id}; null when no op has that shape. */
function matchOp(method, rawPath, ops) {
  const segments = rawPath.split('/');
  for (const op of ops) {
    const [opMethod, opPath] = op.split(' ');
    const parts = opPath.split('/');
    if (opMethod !== method || parts.length !== segments.length) { continue; }
    const ids = [];
    const fits = parts.every((part, i) => {
      if (part !== '{id}') { return part === segments[i]; }
      try { ids.push(decodeURIComponent(segments[i])); return segments[i] !== ''; } catch { return false; }
    });
    if (fits) { return { op, ids }; }
  }
  return null;
}

const result = { visits: 0, requests: 0, failures: [], pageErrors: [], reproduction: null, seen: [], unexercised: [], timing: {} };
const seen = new Set();
const fail = (text) => { if (result.failures.length < 200) { result.failures.push(text); } };
const consoleFile = consoleFiles(consoleDir);

/** The visit the requests now belong to: the page shown and the values it was given; and the one before it. */
let visit = null;
let previous = null;
let inFlight = 0;
let lastActivity = Date.now();

async function serve(route) {
  const request = route.request();
  const url = new URL(request.url());
  inFlight += 1;
  lastActivity = Date.now();
  try {
    if (url.origin === ORIGIN && (url.pathname === '/console/' || url.pathname.startsWith('/console/test/'))) {
      const name = url.pathname === '/console/' ? 'index.html' : url.pathname.slice('/console/test/'.length);
      const file = consoleFile(name);
      return await route.fulfill(file ? { status: 200, ...file } : { status: 404, body: 'no such file' });
    }
    if (url.origin === STORE) {
      return await route.fulfill({ status: request.method() === 'PUT' ? 200 : 404, headers: { 'Access-Control-Allow-Origin': '*' }, body: '' });
    }
    if (url.origin !== ORIGIN) {
      fail(`${visit?.label}: a request left for another origin: ${request.method()} ${request.url()}`);
      return await route.abort();
    }
    result.requests += 1;
    const method = request.method();
    const all = matchOp(method, url.pathname, Object.keys(ANSWERS));
    // A request belongs to the visit of the tab that sent it: a closed tab's last poll, answered late on a loaded
    // machine, is no request of the page shown now.
    let tab = null;
    try { tab = request.frame().page(); } catch { tab = null; }
    // Until the hash has changed, the page shown is still the previous visit's: its timers (a status poll) may fire
    // between the new visit's setup and the hash change (the page's cleanup stops them in the hashchange handler).
    // From one visit of a page to the next of the same page (batch to batch) the old page's status poll is an
    // operation of the new page too: a GET of the previous visit's own value is still that poll; nothing else is.
    const late = visit?.changing && previous && tab === previous.tab && (method === 'GET' || !matchOp(method, url.pathname,
      [...COMMON, ...(OPS[visit.page] || [])])) ? matchOp(method, url.pathname, [...COMMON, ...(OPS[previous.page] || [])]) : null;
    if (late && late.ids.every((id) => previous.values.has(id))) {
      seen.add(late.op);
    } else if (visit && (!visit.tab || tab === visit.tab)) {
      const allowed = matchOp(method, url.pathname, [...COMMON, ...(OPS[visit.page] || [])]);
      if (!allowed) {
        fail(`${visit.label}: ${method} ${url.pathname} is not an operation of the ${visit.page} page`);
      } else {
        seen.add(allowed.op);
        allowed.ids.filter((id) => !visit.values.has(id)).forEach((id) =>
          fail(`${visit.label}: ${method} ${url.pathname}: the value ${JSON.stringify(id.slice(0, 80))} was given to the page by nobody`));
        if (allowed.op === 'POST /media/task/cancel/{id}' && visit.reproduction) { result.reproduction = `${method} ${url.pathname}`; }
      }
    }
    if (!all) { return await route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":"NOT_FOUND","message":"no such operation"}' }); }
    const answer = ANSWERS[all.op](...all.ids);
    return await route.fulfill(Buffer.isBuffer(answer) ? { status: 200, contentType: 'image/png', body: answer }
      : { status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
  } finally {
    inFlight -= 1;
    lastActivity = Date.now();
  }
}

/**
 * Until no request has been in flight for a moment and no short timer (a debounce: 300 ms) is pending in the page;
 * polls (every second or more) go on, their gaps are enough.
 */
async function quiet(page, idle = 150, max = 5000) {
  const start = Date.now();
  await page.waitForTimeout(30);
  while (Date.now() - start < max) {
    if (inFlight === 0 && Date.now() - lastActivity >= idle && (await page.evaluate(() => window.routesTimers?.() || 0)) === 0) { return; }
    await page.waitForTimeout(25);
  }
}

/** Counts the page's pending timers of 500 ms or less (quiet() waits for them). */
function countShortTimers() {
  const set = window.setTimeout;
  const clear = window.clearTimeout;
  const pending = new Set();
  window.setTimeout = (fn, ms, ...args) => {
    if (!(ms <= 500)) { return set(fn, ms, ...args); }
    const id = set(() => { pending.delete(id); if (typeof fn === 'function') { fn(...args); } }, ms);
    pending.add(id);
    return id;
  };
  window.clearTimeout = (id) => { pending.delete(id); clear(id); };
  window.routesTimers = () => pending.size;
}

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  await context.route('**/*', serve);
  await context.addInitScript(countShortTimers);
  const page = await context.newPage();
  page.on('pageerror', (error) => result.pageErrors.push(`${visit?.label}: ${String(error).slice(0, 300)}`));
  page.on('dialog', (dialog) => dialog.dismiss().catch(() => {}));
  return page;
}

async function signIn(page, who) {
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

/** What the page shows now: its route name (the current navigation entry) and its values. */
async function shown(page) {
  return page.evaluate(() => ({
    page: (document.querySelector('nav a[aria-current="page"]')?.getAttribute('href') || '').replace(/^#\//, ''),
    hash: location.hash,
  }));
}

/** Fills every field, chooses a file in every file field, clicks every button (new ones too), checks links. */
async function exercise(page, links) {
  await page.evaluate((typed) => {
    const set = (input, value) => {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    };
    document.querySelectorAll('main input').forEach((input) => {
      const type = input.type;
      if (type === 'text' || type === 'search') { set(input, typed); }
      if (type === 'url') { set(input, 'https://images.test/a.png'); }
      if (type === 'datetime-local') { set(input, '2026-12-01T10:00'); }
    });
  }, TYPED);
  for (const input of await page.locator('main input[type="file"]').all()) {
    await input.setInputFiles({ name: '../../x y.csv', mimeType: 'text/csv', buffer: Buffer.from('name\nAda\n') }).catch(() => {});
  }
  for (let clicks = 0; clicks < 40; clicks += 1) {
    const clicked = await page.evaluate(() => {
      // A button is known by what it is (a list drawn again after an action draws the same buttons again).
      const key = (b) => [b.textContent, b.id, ...[...b.attributes].filter((a) => /^(aria-label|data-|value)/.test(a.name))
        .map((a) => `${a.name}=${a.value}`)].join('|');
      window.routesClicked ||= new Set();
      const button = [...document.querySelectorAll('main button, dialog[open] button')].find((b) => !window.routesClicked.has(key(b))
        && !b.disabled && b.getClientRects().length > 0);
      if (!button) { return null; }
      window.routesClicked.add(key(button));
      button.click();
      return button.textContent;
    });
    if (clicked === null) { break; }
    await quiet(page);
  }
  await quiet(page);
  const found = await page.evaluate(() => [...document.querySelectorAll('[href], [src], [poster]')]
    .flatMap((element) => ['href', 'src', 'poster'].filter((name) => element.hasAttribute(name))
      .map((name) => ({ tag: element.tagName, name, value: element.getAttribute(name) }))));
  for (const { tag, name, value } of found) {
    if (/^\s*(javascript|data|vbscript):/i.test(value)) { fail(`${visit.label}: <${tag} ${name}="${value.slice(0, 60)}">`); }
    if (tag !== 'A' || !value.startsWith('#')) { continue; }
    if (value === '#main') { continue; }
    const raw = value.slice(2).split('/');
    const decoded = routeParts(value);
    if (!value.startsWith('#/') || raw.length > 2 || decoded.slice(1).some((v) => !visit.values.has(v) && v !== 'new')) {
      fail(`${visit.label}: the link ${value.slice(0, 120)} is not one page and one value`);
    } else if (raw.length === 2) {
      links.add(value);
    }
  }
}

async function run(browser, who) {
  const page = await newPage(browser);
  await page.goto(`${ORIGIN}/console/`);
  await page.waitForSelector(`#${who}-sign-in`);
  visit = { label: `${who} sign-in`, tab: page, page: who === 'operator' ? 'operator' : 'home', values: new Set(Object.values(IDS)) };
  await signIn(page, who);
  await quiet(page);
  const routes = await page.evaluate(() => [...document.querySelectorAll('nav a')].map((a) => a.getAttribute('href').replace(/^#\//, '')));
  routes.filter((route) => !OPS[route]).forEach((route) => fail(`the page ${route} has no list of its API operations (OPS in console-routes.mjs)`));
  const links = new Set();
  for (const route of routes) {
    for (const hostile of HOSTILE) {
      await visitRoute(page, `#/${route}/${hostile}`, `${who} ${route}`, links);
    }
  }
  await visitRoute(page, `#/${HOSTILE[0]}`, `${who} unknown page`, links);
  for (const link of links) { await visitRoute(page, link, `${who} link`, new Set()); }
  await page.context().close();
}

async function visitRoute(page, hash, label, links) {
  // The page's own calls start as soon as the hash changes: the visit is set up with the values first.
  await quiet(page);
  const started = Date.now();
  const expected = routeParts(await page.evaluate((h) => { const a = document.createElement('a'); a.href = h; return a.hash; }, hash));
  // The page shown is the route's if it is one, else the first page (the console's fallback).
  const routes = await page.evaluate(() => [...document.querySelectorAll('nav a')].map((a) => a.getAttribute('href').replace(/^#\//, '')));
  previous = visit;
  visit = { label: `${label} ${hash.slice(0, 90)}`, tab: page, page: routes.includes(expected[0]) ? expected[0] : routes[0],
    values: new Set([...expected.slice(1), TYPED, ...Object.values(IDS), 'new']), changing: true };
  result.visits += 1;
  // resolved once the console's own hashchange listener (registered first: it stops the old page) has run
  await page.evaluate((target) => new Promise((resolve) => {
    window.routesClicked = new Set();
    window.addEventListener('hashchange', () => resolve(), { once: true });
    setTimeout(resolve, 5000); // a hash the URL parser leaves as it was fires no event
    if (location.hash === target) { window.dispatchEvent(new HashChangeEvent('hashchange')); } else { location.hash = target; }
  }), hash);
  visit.changing = false;
  await quiet(page);
  await exercise(page, links);
  const spent = (result.timing[visit.page] ||= [0, 0]);
  spent[0] += 1;
  spent[1] += Date.now() - started;
}

const browser = await launchChromium();
try {
  // The report's reproduction: the crafted link opened in a new tab, sign-in, "Cancel task".
  const page = await newPage(browser);
  const crafted = '..%2F..%2F..%2Fwebhooks%2Fendpoint%2Ftest';
  await page.goto(`${ORIGIN}/console/#/batch/${crafted}`);
  visit = { label: 'crafted link', tab: page, page: 'batch', values: new Set(['../../../webhooks/endpoint/test', ...Object.values(IDS)]),
    reproduction: true };
  await signIn(page, 'vendor');
  await page.waitForSelector('#task-cancel');
  await page.click('#task-cancel');
  await quiet(page);
  await page.context().close();

  await run(browser, 'vendor');
  await run(browser, 'operator');
} catch (error) {
  fail(`the test itself failed: ${String(error && error.stack || error).slice(0, 1000)}`);
} finally {
  await browser.close();
}
result.seen = [...seen].sort();
result.unexercised = Object.values(OPS).flat().filter((op) => op.includes('{id}') && !seen.has(op))
  .filter((op, i, all) => all.indexOf(op) === i);
process.stdout.write(`${JSON.stringify(result)}\n`);
