// The session and every call to the API, through the TypeScript SDK (@pmedia/client, bundled by gateway-service's
// build into vendor/pmedia-client.mjs): the SDK fetches the vendor's token, refreshes it before it expires and once
// more on a 401, retries what the API document marks idempotent on 429 and 503, and types the error answers. The token
// (and the vendor's secret, to refresh it) lives in the SDK client held here, in memory only: never in storage or a
// cookie, gone on reload and on sign-out. Paths with values in them are built with apiPath (paths.js); a path the
// browser would rewrite is refused here, before anything is sent.
import { PmediaApiError, PmediaClient } from '../vendor/pmedia-client.mjs';
import { isPlainPath } from './paths.js';

let session = null;
const listeners = new Set();

/** Calls back with the session (or null) whenever it changes. */
export function onSession(listener) { listeners.add(listener); }
export function current() { return session; }
function changed() { listeners.forEach((listener) => listener(session)); }

/** Signs a vendor in with its client id and secret (POST /auth/token, by the SDK). */
export async function signInVendor(clientId, secret) {
  const client = new PmediaClient({ baseUrl: location.origin, clientId, clientSecret: secret });
  await client.accessToken();
  session = { kind: 'vendor', clientId, client };
  changed();
}

/** Signs the operator in with the admin token, checked by reading the vendor list. */
export async function signInOperator(adminToken) {
  const client = new PmediaClient({ baseUrl: location.origin, adminToken });
  await client.call('GET', '/admin/clients');
  session = { kind: 'operator', client };
  changed();
}

/** Forgets the client, and with it the token and the secret. */
export function signOut(reason) {
  session = null;
  listeners.forEach((listener) => listener(null, reason));
}

/**
 * Calls the API with the session's credentials. `body` is sent as JSON; `as: 'blob'` answers the body as a Blob.
 * A vendor whose token is refused even after the SDK fetched a new one (revoked, or its secret rotated) is signed out.
 */
export async function api(path, { method = 'GET', body, as, query } = {}) {
  if (!session) { throw new PmediaApiError(401, 'UNAUTHORIZED', 'not signed in'); }
  // A value that became an empty or a dot segment, or anything the URL parser would act on: never sent elsewhere.
  if (!isPlainPath(path)) { throw new Error(`not sent: "${path}" is not a path of one API operation`); }
  const asked = session;
  try {
    return await asked.client.call(method, path, { body, as, query });
  } catch (error) {
    if (error instanceof PmediaApiError && error.status === 401 && asked.kind === 'vendor' && session === asked) {
      signOut('Your session ended: sign in again.');
    }
    throw error;
  }
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
