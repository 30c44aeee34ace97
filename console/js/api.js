// The session and every call to the API. The token (and the vendor's secret, to refresh it) lives in this module's
// memory only: never in storage or a cookie, gone on reload and on sign-out. Paths with values in them are built with
// apiPath (paths.js); a path the browser would rewrite is refused here, before anything is sent.
import { isPlainPath } from './paths.js';

/** An API answer that was not 2xx: its status and the error body's code and message (docs: the error contract). */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code || '';
  }
}

let session = null;
const listeners = new Set();

/** Calls back with the session (or null) whenever it changes. */
export function onSession(listener) { listeners.add(listener); }
export function current() { return session; }
function changed() { listeners.forEach((listener) => listener(session)); }

async function answer(response) {
  const text = await response.text();
  let body = null;
  if (text) {
    try { body = JSON.parse(text); } catch { body = text; }
  }
  if (!response.ok) {
    const message = body && typeof body === 'object' ? body.message : (body || response.statusText);
    throw new ApiError(response.status, body && body.code, message);
  }
  return body;
}

async function fetchToken(clientId, secret) {
  const response = await fetch('/auth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: secret }),
  });
  return answer(response);
}

function schedule() {
  clearTimeout(session.timer);
  // Refresh a minute before expiry (or at 80 % of a short lifetime).
  const lifetime = session.expiresAt - Date.now();
  const wait = Math.max(5000, Math.min(lifetime - 60000, lifetime * 0.8));
  session.timer = setTimeout(() => refresh().catch(() => signOut('Your session ended: sign in again.')), wait);
}

async function refresh() {
  if (!session || session.kind !== 'vendor') { return; }
  const token = await fetchToken(session.clientId, session.secret);
  session.token = token.access_token;
  session.expiresAt = Date.now() + token.expires_in * 1000;
  schedule();
}

/** Signs a vendor in with its client id and secret (POST /auth/token). */
export async function signInVendor(clientId, secret) {
  const token = await fetchToken(clientId, secret);
  session = { kind: 'vendor', clientId, secret, token: token.access_token,
    expiresAt: Date.now() + token.expires_in * 1000, timer: 0 };
  schedule();
  changed();
}

/** Signs the operator in with the admin token, checked by reading the vendor list. */
export async function signInOperator(adminToken) {
  const response = await fetch('/admin/clients', { headers: { Authorization: `Bearer ${adminToken}` } });
  await answer(response);
  session = { kind: 'operator', token: adminToken, expiresAt: Infinity, timer: 0 };
  changed();
}

/** Forgets the token and the secret. */
export function signOut(reason) {
  if (session) { clearTimeout(session.timer); }
  session = null;
  listeners.forEach((listener) => listener(null, reason));
}

/**
 * Calls the API with the session's token. `body` is sent as JSON; `as: 'blob'` answers the body as a Blob.
 * A 401 refreshes a vendor's token once and retries.
 */
export async function api(path, { method = 'GET', body, as, query } = {}) {
  if (!session) { throw new ApiError(401, 'UNAUTHORIZED', 'not signed in'); }
  // A value that became an empty or a dot segment, or anything the URL parser would act on: never sent elsewhere.
  if (!isPlainPath(path)) { throw new Error(`not sent: "${path}" is not a path of one API operation`); }
  let url = path;
  if (query) {
    const params = new URLSearchParams();
    Object.entries(query).forEach(([key, value]) => {
      if (value !== undefined && value !== null && value !== '') { params.set(key, value); }
    });
    if ([...params].length) { url += `?${params}`; }
  }
  const send = () => fetch(url, {
    method,
    headers: Object.assign({ Authorization: `Bearer ${session.token}`, Accept: as === 'blob' ? '*/*' : 'application/json' },
      body === undefined ? {} : { 'Content-Type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let response = await send();
  if (response.status === 401 && session.kind === 'vendor') {
    await refresh();
    response = await send();
  }
  if (as === 'blob' && response.ok) { return response.blob(); }
  return answer(response);
}

/** Every page of a cursor list ({items, next-cursor}), up to `max` items. */
export async function all(path, query = {}, max = 500) {
  const items = [];
  let cursor;
  do {
    const page = await api(path, { query: Object.assign({}, query, { limit: 100, cursor }) });
    items.push(...page.items);
    cursor = page['next-cursor'];
  } while (cursor && items.length < max);
  return items;
}
