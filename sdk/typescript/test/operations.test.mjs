// Which requests are retried is read from docs/openapi.yaml: every operation the document marks
// `x-pmedia-idempotent: true` is sent again after a 503, and no other POST or PATCH is. The document is read here on
// its own (a line scan of its paths, methods and marks), not through the generated table the SDK uses, so a table
// that missed or invented a mark fails. Also `call`, the wire-format request the console makes through the SDK.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { PmediaApiError, PmediaClient, PmediaError } from '../dist/esm/index.js';
import { CONTRACT_OPERATIONS } from '../dist/esm/generated/operations.js';
import { idempotent } from '../dist/esm/operations.js';
import { fakeApi } from './fake-api.mjs';

const DOCUMENT = new URL('../../../docs/openapi.yaml', import.meta.url);

/** Every operation of the document: method, path template, and whether it is marked x-pmedia-idempotent. */
function documentOperations() {
    const operations = [];
    let path = null;
    let operation = null;
    for (const line of fs.readFileSync(DOCUMENT, 'utf8').split('\n')) {
        const pathLine = /^ {2}(\/\S*):\s*$/.exec(line);
        const methodLine = /^ {4}(get|put|post|delete|patch|head|options):\s*$/.exec(line);
        if (pathLine) {
            path = pathLine[1];
            operation = null;
        } else if (/^\S/.test(line)) {
            path = null; // past `paths:`
            operation = null;
        } else if (methodLine && path) {
            operation = { method: methodLine[1].toUpperCase(), path, marked: false };
            operations.push(operation);
        } else if (operation && /^ {6}x-pmedia-idempotent:\s*true\s*$/.test(line)) {
            operation.marked = true;
        }
    }
    return operations;
}

const token = (n) => [200, { access_token: `token-${n}`, token_type: 'Bearer', expires_in: 3600 }];
const unavailable = [503, { error: true, message: 'busy', code: 'SERVICE_UNAVAILABLE', timestamp: '2026-11-30T08:00:00Z' },
    { 'Retry-After': '0' }];
const concrete = (template) => template.replace(/\{[^}]+\}/g, 'x-1');

test('the generated table holds every operation of the document with its mark', () => {
    const fromDocument = documentOperations().map((o) => `${o.method} ${o.path} ${o.marked}`).sort();
    const generated = CONTRACT_OPERATIONS.map((o) => `${o.method} ${o.path} ${o.markedIdempotent}`).sort();
    assert.ok(fromDocument.length > 60, `${fromDocument.length} operations read from the document`);
    assert.deepEqual(generated, fromDocument);
});

test('the marks are the ones the retries were written for, and a marked operation may be repeated', () => {
    const marked = documentOperations().filter((o) => o.marked).map((o) => `${o.method} ${o.path}`).sort();
    assert.deepEqual(marked, ['POST /auth/token', 'POST /media/demo', 'POST /media/task/uploads',
        'POST /templates/{templateId}/preview', 'POST /video/demo']);
    assert.equal(idempotent('POST', '/media/task/create'), false);
    assert.equal(idempotent('POST', '/templates/abc/preview'), true);
    assert.equal(idempotent('POST', '/templates/abc/preview/x'), false);
    assert.equal(idempotent('PATCH', '/admin/clients/abc'), false);
    assert.equal(idempotent('DELETE', '/admin/clients/abc'), true);
});

test('every operation the document marks idempotent is retried after a 503, and no other POST or PATCH is', async () => {
    const mutating = documentOperations().filter((o) => o.method === 'POST' || o.method === 'PATCH');
    assert.ok(mutating.some((o) => o.marked) && mutating.some((o) => !o.marked));
    // Once the client holds its token: the first of each request is a 503 (Retry-After: 0), the next one a 200.
    const sent = new Map();
    let ready = false;
    const api = await fakeApi((req) => {
        if (!ready) return token(1);
        const key = `${req.method} ${req.url}`;
        sent.set(key, (sent.get(key) ?? 0) + 1);
        return sent.get(key) === 1 ? unavailable : [200, {}];
    });
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's', adminToken: 'admin' });
    await pmedia.accessToken();
    ready = true;
    const wrong = [];
    for (const operation of mutating) {
        const path = concrete(operation.path);
        const answer = await pmedia.call(operation.method, path, { body: {} }).then(() => 200, (e) => e.status);
        const times = sent.get(`${operation.method} ${path}`) ?? 0;
        const expected = operation.marked ? [200, 2] : [503, 1];
        if (answer !== expected[0] || times !== expected[1]) {
            wrong.push(`${operation.method} ${operation.path} (marked ${operation.marked}): answered ${answer}, sent ${times} times`);
        }
    }
    assert.deepEqual(wrong, []);
    await api.close();
});

test('call sends the wire format with the vendor token, and answers the body as the API wrote it', async () => {
    const api = await fakeApi((req) => req.url === '/auth/token' ? token(1)
        : [200, { items: [{ 'service-request-id': 'r-1' }], 'next-cursor': null }]);
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    const page = await pmedia.call('GET', '/media/requests', { query: { status: 'FAILURE', cursor: undefined, to: '' } });
    assert.deepEqual(page, { items: [{ 'service-request-id': 'r-1' }], 'next-cursor': null });
    const asked = api.seen.at(-1);
    assert.equal(asked.path, '/media/requests?status=FAILURE');
    assert.equal(asked.headers.authorization, 'Bearer token-1');
    await pmedia.call('POST', '/media/demo', { body: { 'client-request-id': 'order-1' } });
    assert.deepEqual(JSON.parse(api.seen.at(-1).body), { 'client-request-id': 'order-1' });
    assert.equal(api.seen.at(-1).headers['content-type'], 'application/json');
    await api.close();
});

test('call renews a refused token once, sends the admin token to /admin only, and types error answers', async () => {
    const api = await fakeApi((req, body, seen) => {
        if (req.url === '/auth/token') return token(seen.filter((r) => r.path === '/auth/token').length);
        if (req.url === '/usage' && req.headers.authorization === 'Bearer token-1') {
            return [401, { error: true, message: 'token revoked', code: 'UNAUTHORIZED', timestamp: 't' }];
        }
        if (req.url === '/missing') return [404, { error: true, message: 'no such thing', code: 'NOT_FOUND', timestamp: 't' }];
        return [200, { ok: true }];
    });
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's', adminToken: 'admin' });
    assert.deepEqual(await pmedia.call('GET', '/usage'), { ok: true });
    assert.equal(api.seen.at(-1).headers.authorization, 'Bearer token-2');
    await pmedia.call('GET', '/admin/clients');
    assert.equal(api.seen.at(-1).headers.authorization, 'Bearer admin');
    const failure = await pmedia.call('GET', '/missing').catch((e) => e);
    assert.ok(failure instanceof PmediaApiError);
    assert.deepEqual([failure.status, failure.code, failure.message], [404, 'NOT_FOUND', 'no such thing']);
    const operator = new PmediaClient({ baseUrl: api.url, adminToken: 'admin' });
    await operator.call('GET', '/admin/usage');
    assert.equal(api.seen.at(-1).headers.authorization, 'Bearer admin');
    await api.close();
});

test('call refuses a path the URL parser would rewrite, before anything is sent', async () => {
    const api = await fakeApi(() => [200, {}]);
    const pmedia = new PmediaClient({ baseUrl: api.url, adminToken: 'admin' });
    const sent = [];
    try {
        for (const path of ['/media/task/cancel/..', '/media/task/cancel/%2e%2e', '/a/../webhooks/endpoint/test',
            '/a\\b', '/a?b=c', '/a#b', 'media/tasks', '/a\tb', '//evil.test/x']) {
            const failure = await pmedia.call('POST', path).then(() => null, (e) => e);
            if (!(failure instanceof PmediaError) || !/not sent/.test(failure.message)) { sent.push(`${path}: ${failure}`); }
        }
    } finally {
        await api.close();
    }
    assert.deepEqual(sent, []);
    assert.equal(api.seen.length, 0);
});
