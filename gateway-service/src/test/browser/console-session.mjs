// The console's session through the TypeScript SDK (issue 34), in Debian's Chromium (playwright-core from build/node),
// with no stack: the console's files and the SDK bundle the gateway's build made, against a fake API inside the browser
// whose answers each check sets. Each check is one entry of `checks` ({name, ok, detail}); the Java runner
// (ConsoleSessionTest) fails on any that is not ok. Checks:
// - sign-in: a refused secret shows the API's message, status and code on the form, and signs nobody in;
// - signed in: every call carries the vendor's token; nothing is kept in storage or a cookie;
// - a 401 to the token: a new token is fetched once, the call sent again with it, and the page shows its data;
// - a 503 (Retry-After: 0) to a GET is sent again and the page shows its data; to a POST the document does not mark
//   idempotent (the webhook test event) it is not, and the page shows the error with its status and code;
// - a token still refused after a new one (the secret revoked): signed out, "Your session ended" on the sign-in page,
//   and nothing of the page that was shown is left;
// - the operator's calls carry the admin token.
// Prints one JSON line: {checks, pageErrors}. Usage: node console-session.mjs <console folder>
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleFiles, runChecks } from './console-harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consoleDir = path.resolve(process.argv[2] || path.join(here, '../../../../console'));
const consoleFile = consoleFiles(consoleDir);

const ORIGIN = 'https://console.test';
const NOW = '2026-11-30T03:00:00Z';
const checks = [];
const pageErrors = [];
const check = (name, ok, detail = '') => checks.push({ name, ok: Boolean(ok), detail: ok ? '' : String(detail).slice(0, 2000) });
const failure = (status, code, message) => ({ status, body: { error: true, code, message, timestamp: NOW } });

/** The fake API: what it was asked (method, path, Authorization), and the answer of each request set by the checks. */
const asked = [];
let tokensIssued = 0;
let answer = () => null;
const usage = { from: '2026-11-01', to: '2026-12-01', granularity: 'day', totals: {}, periods: [] };
/** What the API answers when a check does not say otherwise. */
function normal(method, pathname, authorization) {
  if (method === 'POST' && pathname === '/auth/token') {
    tokensIssued += 1;
    return { status: 200, body: { access_token: `token-${tokensIssued}`, token_type: 'Bearer', expires_in: 3600 } };
  }
  if (pathname.startsWith('/admin/')) {
    const lists = ['/admin/usage', '/admin/webhooks/dead-letters'];
    return authorization === 'Bearer admin-token' ? { status: 200, body: lists.includes(pathname) ? { items: [] } : [] }
      : failure(401, 'UNAUTHORIZED', 'not the admin token');
  }
  const bodies = { '/account': { 'client-id': 'vendor-1', name: 'Acme' }, '/usage': usage, '/templates': [],
    '/media/requests': { items: [], 'next-cursor': null }, '/webhooks/deliveries': { items: [], 'next-cursor': null },
    '/webhooks/endpoint': { url: 'https://hooks.test/x', 'event-types': [], 'available-event-types': ['video.ready'] } };
  return bodies[pathname] ? { status: 200, body: bodies[pathname] } : failure(404, 'NOT_FOUND', 'not found');
}

async function serve(route) {
  const request = route.request();
  const url = new URL(request.url());
  if (url.origin === ORIGIN && (url.pathname === '/console/' || url.pathname.startsWith('/console/test/'))) {
    const file = consoleFile(url.pathname === '/console/' ? 'index.html' : url.pathname.slice('/console/test/'.length));
    return route.fulfill(file ? { status: 200, ...file } : { status: 404, body: 'no such file' });
  }
  if (url.origin !== ORIGIN) { return route.fulfill({ status: 404, body: '' }); }
  const authorization = (await request.allHeaders()).authorization || '';
  asked.push({ op: `${request.method()} ${url.pathname}`, authorization });
  const given = answer(request.method(), url.pathname, authorization) || normal(request.method(), url.pathname, authorization);
  return route.fulfill({ status: given.status, contentType: 'application/json', headers: given.headers || {},
    body: JSON.stringify(given.body) });
}

const count = (op, from = 0) => asked.slice(from).filter((a) => a.op === op).length;
const errorsShown = (page) => page.$$eval('.error[role="alert"]:not([hidden])', (boxes) => boxes.map((b) => b.textContent));

async function go(page, hash) {
  await page.evaluate((target) => { location.hash = target; }, hash);
  await page.waitForFunction(() => !document.querySelector('main')?.textContent.includes('Loading…'), null, { timeout: 5000 })
    .catch(() => {});
  await page.waitForTimeout(500);
}

async function signInVendor(page, secret) {
  await page.fill('#vendor-sign-in input[name="client_id"]', 'vendor-1');
  await page.fill('#vendor-sign-in input[name="client_secret"]', secret);
  await page.click('#vendor-sign-in button[type="submit"]');
}

async function vendorChecks(browser) {
  const context = await browser.newContext();
  await context.route('**/*', serve);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error).slice(0, 300)));
  await page.goto(`${ORIGIN}/console/`);

  answer = (method, pathname) => (pathname === '/auth/token' ? failure(401, 'UNAUTHORIZED', 'invalid client credentials') : null);
  await signInVendor(page, 'wrong');
  await page.waitForSelector('#vendor-sign-in .error:not([hidden])', { timeout: 5000 }).catch(() => {});
  const refused = await page.$eval('#vendor-sign-in .error', (box) => box.textContent).catch(() => '');
  check('sign-in: a refused secret shows the API\'s message, status and code', refused === 'invalid client credentials (401 UNAUTHORIZED)'
    && !(await page.$('nav a[aria-current="page"]')), refused);

  answer = () => null;
  await signInVendor(page, 'secret-1');
  await page.waitForSelector('nav a[aria-current="page"]', { timeout: 5000 }).catch(() => {});
  await page.waitForTimeout(800);
  const calls = asked.filter((a) => a.op !== 'POST /auth/token');
  const stored = await page.evaluate(() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage),
    document.cookie]));
  check('signed in: every call carries the vendor\'s token, nothing is stored', calls.length > 2
    && calls.every((a) => a.authorization === 'Bearer token-1') && stored === '[[],[],""]',
  JSON.stringify({ calls, stored }));

  // The token is revoked: the API refuses token-1 from now on and issues token-2.
  let from = asked.length;
  answer = (method, pathname, authorization) => (authorization === 'Bearer token-1'
    ? failure(401, 'UNAUTHORIZED', 'token revoked') : null);
  await go(page, '#/usage');
  const usageCalls = asked.slice(from).filter((a) => a.op === 'GET /usage').map((a) => a.authorization);
  check('a 401 to the token: one new token, the call sent again with it, the page shows its data',
    count('POST /auth/token', from) === 1 && JSON.stringify(usageCalls) === '["Bearer token-1","Bearer token-2"]'
    && (await errorsShown(page)).length === 0,
  JSON.stringify({ usageCalls, errors: await errorsShown(page) }));

  answer = () => null;
  await go(page, '#/home');
  from = asked.length;
  let refusedOnce = false;
  answer = (method, pathname) => {
    if (pathname === '/usage' && !refusedOnce) {
      refusedOnce = true;
      return { ...failure(503, 'SERVICE_UNAVAILABLE', 'busy'), headers: { 'Retry-After': '0' } };
    }
    return null;
  };
  await go(page, '#/usage');
  check('a 503 to a GET is sent again, and the page shows its data', count('GET /usage', from) === 2 && refusedOnce
    && (await errorsShown(page)).length === 0, JSON.stringify({ sent: count('GET /usage', from), errors: await errorsShown(page) }));

  await go(page, '#/webhooks');
  from = asked.length;
  answer = (method, pathname) => (pathname === '/webhooks/endpoint/test'
    ? { ...failure(503, 'SERVICE_UNAVAILABLE', 'the notifier is unavailable'), headers: { 'Retry-After': '0' } } : null);
  await page.click('#send-test');
  await page.waitForTimeout(800);
  const shown = await errorsShown(page);
  check('a 503 to a POST not marked idempotent is not sent again, and its error is shown with status and code',
    count('POST /webhooks/endpoint/test', from) === 1 && shown.includes('the notifier is unavailable (503 SERVICE_UNAVAILABLE)'),
    JSON.stringify({ sent: count('POST /webhooks/endpoint/test', from), shown }));

  // The secret is revoked: every token is refused, and no new one is issued.
  answer = (method, pathname) => (pathname === '/auth/token' ? failure(401, 'UNAUTHORIZED', 'invalid client credentials')
    : failure(401, 'UNAUTHORIZED', 'token revoked'));
  await go(page, '#/templates');
  await page.waitForSelector('#vendor-sign-in', { timeout: 5000 }).catch(() => {});
  const notice = await page.textContent('main').catch(() => '');
  const headings = await page.$$eval('main h1', (all) => all.map((h1) => h1.textContent));
  check('a token still refused after a new one: signed out, told why, the page\'s data gone', (await page.$('#vendor-sign-in'))
    !== null && notice.includes('Your session ended: sign in again.') && JSON.stringify(headings) === '["Sign in"]'
    && (await page.$eval('#nav', (nav) => nav.hidden)), JSON.stringify({ headings, notice }));
  await context.close();
}

async function operatorChecks(browser) {
  answer = () => null;
  const context = await browser.newContext();
  await context.route('**/*', serve);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error).slice(0, 300)));
  await page.goto(`${ORIGIN}/console/`);
  const from = asked.length;
  await page.fill('#operator-sign-in input[name="admin_token"]', 'admin-token');
  await page.click('#operator-sign-in button[type="submit"]');
  await page.waitForSelector('nav a[aria-current="page"]', { timeout: 5000 }).catch(() => {});
  await page.waitForTimeout(800);
  const calls = asked.slice(from);
  check('operator: every call carries the admin token, no vendor token is asked for', calls.length > 2
    && calls.every((a) => a.op.startsWith('GET /admin/') && a.authorization === 'Bearer admin-token'), JSON.stringify(calls));
  await context.close();
}

await runChecks(checks, pageErrors, vendorChecks, operatorChecks);
