// Unit tests of the hand-written layer against a local HTTP double of the API (node:http); the same calls against
// the real stack are the examples' tests (examples/test). Run with `npm test` after `npm run build`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PmediaApiError, PmediaClient, RenderFailedError } from '../dist/esm/index.js';
import { fakeApi } from './fake-api.mjs';

const token = (n, expiresIn = 3600) => [200, { access_token: `token-${n}`, token_type: 'Bearer', expires_in: expiresIn }];
const error = (status, code, message) => [status, { error: true, message, code, timestamp: '2026-11-27T08:00:00Z' }];
const tokensIssued = (seen) => seen.filter((r) => r.path === '/auth/token').length;

test('a token is fetched once, cached, and sent to every operation that takes it', async () => {
    const api = await fakeApi((req, body, seen) => req.url === '/auth/token'
        ? token(tokensIssued(seen)) : [200, []]);
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    await Promise.all([pmedia.templates.listTemplates(), pmedia.templates.listTemplates()]);
    await pmedia.templates.listTemplates();
    assert.equal(tokensIssued(api.seen), 1);
    const asked = api.seen.find((r) => r.path === '/auth/token');
    assert.deepEqual(JSON.parse(asked.body), { client_id: 'c', client_secret: 's' });
    assert.equal(asked.headers.authorization, undefined);
    for (const call of api.seen.filter((r) => r.path === '/templates')) {
        assert.equal(call.headers.authorization, 'Bearer token-1');
    }
    await api.close();
});

test('a token is refreshed before it expires', async () => {
    // A 1 s token is fetched again after 0.9 s: the second call after a pause of a second gets a new one.
    const api = await fakeApi((req, body, seen) => req.url === '/auth/token'
        ? token(tokensIssued(seen), 1) : [200, []]);
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    await pmedia.templates.listTemplates();
    await new Promise((resolve) => setTimeout(resolve, 950)); // the token's lifetime passing is what is tested
    await pmedia.templates.listTemplates();
    assert.equal(tokensIssued(api.seen), 2);
    assert.equal(api.seen.at(-1).headers.authorization, 'Bearer token-2');
    await api.close();
});

test('a 401 to a cached token fetches a new one and tries once more', async () => {
    const api = await fakeApi((req, body, seen) => {
        if (req.url === '/auth/token') return token(tokensIssued(seen));
        return req.headers.authorization === 'Bearer token-1' ? error(401, 'UNAUTHORIZED', 'token revoked') : [200, []];
    });
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    assert.deepEqual(await pmedia.templates.listTemplates(), []);
    assert.equal(tokensIssued(api.seen), 2);
    await api.close();
});

test('a 429 on an idempotent request is retried after Retry-After', async () => {
    let statusCalls = 0;
    const api = await fakeApi((req) => {
        if (req.url === '/auth/token') return token(1);
        statusCalls++;
        return statusCalls === 1 ? [...error(429, 'RATE_LIMITED', 'slow down'), { 'Retry-After': '1' }]
            : [200, { status: 'PROCESSING', message: null, 'video-url': null, 'image-url': null }];
    });
    const retries = [];
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's',
        retry: { onRetry: (event) => retries.push(event) } });
    const status = await pmedia.realtime.getMediaStatus({ transactionId: 'r-1' });
    assert.equal(status.status, 'PROCESSING');
    assert.equal(retries.length, 1);
    assert.equal(retries[0].status, 429);
    assert.equal(retries[0].waitMs, 1000);
    const [first, second] = api.seen.filter((r) => r.path === '/status/r-1');
    assert.ok(second.at - first.at >= 990, `retried after ${second.at - first.at} ms`);
    await api.close();
});

test('a 503 on a batch task create is not retried and reaches the caller as a typed error', async () => {
    const api = await fakeApi((req) => req.url === '/auth/token' ? token(1)
        : [...error(503, 'SERVICE_UNAVAILABLE', 'the batch service is unavailable'), { 'Retry-After': '5' }]);
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    const failure = await pmedia.createTask({ campaignId: 'x', templateId: '00000000-0000-0000-0000-000000000000',
        filePath: 's3://b/k', rowCount: 1, expectedOutputDuration: 1 }).catch((e) => e);
    assert.ok(failure instanceof PmediaApiError);
    assert.equal(failure.status, 503);
    assert.equal(failure.code, 'SERVICE_UNAVAILABLE');
    assert.equal(failure.message, 'the batch service is unavailable');
    assert.equal(failure.retryAfterSeconds, 5);
    assert.equal(api.seen.filter((r) => r.path === '/media/task/create').length, 1);
    await api.close();
});

test('an error answer is a PmediaApiError carrying the error body', async () => {
    const api = await fakeApi((req) => req.url === '/auth/token' ? token(1)
        : error(404, 'NOT_FOUND', 'media request not found: nope'));
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    const failure = await pmedia.realtime.getMediaStatus({ transactionId: 'nope' }).catch((e) => e);
    assert.ok(failure instanceof PmediaApiError, String(failure));
    assert.equal(failure.code, 'NOT_FOUND');
    assert.equal(failure.body.message, 'media request not found: nope');
    await api.close();
});

test('renderVideo waits with backoff, tells each status, and returns SUCCESS', async () => {
    let polls = 0;
    const api = await fakeApi((req) => {
        if (req.url === '/auth/token') return token(1);
        if (req.url === '/media/demo') {
            return [200, { status: 'SUCCESS', message: 'accepted', 'client-request-id': 'x', 'service-request-id': 'r-1' }];
        }
        polls++;
        return polls < 3
            ? [200, { status: 'PROCESSING', message: null, 'video-url': null, 'image-url': null, 'stream-url': 'https://s/p.m3u8' }]
            : [200, { status: 'SUCCESS', message: null, 'video-url': 'https://s/v.mp4', 'image-url': 'https://s/t.jpg',
                'stream-url': 'https://s/p.m3u8', renditions: { webm: 'https://s/v.webm' } }];
    });
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    const seen = [];
    const video = await pmedia.renderVideo({ clientRequestId: 'x', customerId: 'c', useCaseId: 'demo', userId: 'u',
        data: { personalizationFields: { name: 'Ada' } } }, { firstIntervalMs: 10, onProgress: (s) => seen.push(s.status) });
    assert.equal(video.videoUrl, 'https://s/v.mp4');
    assert.equal(video.streamUrl, 'https://s/p.m3u8');
    assert.deepEqual(video.renditions, { webm: 'https://s/v.webm' });
    assert.deepEqual(seen, ['PROCESSING', 'PROCESSING', 'SUCCESS']);
    const created = JSON.parse(api.seen.find((r) => r.path === '/media/demo').body);
    assert.equal(created['client-request-id'], 'x');
    assert.deepEqual(created.data.personalization_fields, { name: 'Ada' });
    await api.close();
});

test('renderVideo throws RenderFailedError on FAILURE', async () => {
    const api = await fakeApi((req) => req.url === '/auth/token' ? token(1)
        : req.url === '/media/demo'
            ? [200, { status: 'FAILURE', message: 'personalization field name is required', 'client-request-id': 'x',
                'service-request-id': 'r-2' }]
            : [500, {}]);
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    const failure = await pmedia.renderVideo({ clientRequestId: 'x', customerId: 'c', useCaseId: 'demo', userId: 'u' })
        .catch((e) => e);
    assert.ok(failure instanceof RenderFailedError);
    assert.match(failure.message, /personalization field name is required/);
    await api.close();
});

test('uploadBatchFile PUTs to the presigned URL without the token', async () => {
    const store = await fakeApi(() => [200, undefined]);
    const api = await fakeApi((req) => req.url === '/auth/token' ? token(1)
        : [200, { 'file-path': 's3://b/inputs/c/1/rows.csv', 'upload-url': `${store.url}/b/inputs/c/1/rows.csv?X-Amz-Signature=x`,
            'expires-in': 900 }]);
    const pmedia = new PmediaClient({ baseUrl: api.url, clientId: 'c', clientSecret: 's' });
    const path = await pmedia.uploadBatchFile(new TextEncoder().encode('user-id,name\nu-1,Ada\n'), 'rows.csv');
    assert.equal(path, 's3://b/inputs/c/1/rows.csv');
    assert.deepEqual(JSON.parse(api.seen.find((r) => r.path === '/media/task/uploads').body), { 'file-name': 'rows.csv' });
    assert.equal(store.seen[0].method, 'PUT');
    assert.equal(store.seen[0].body, 'user-id,name\nu-1,Ada\n');
    assert.equal(store.seen[0].headers.authorization, undefined);
    await Promise.all([api.close(), store.close()]);
});

test('the API key goes to the operations whose security names it', async () => {
    const api = await fakeApi(() => [200, { status: 'PROCESSING', message: null, 'video-url': null, 'image-url': null }]);
    const pmedia = new PmediaClient({ baseUrl: api.url, apiKey: 'key-1' });
    await pmedia.realtime.getMediaStatus({ transactionId: 'r-1' });
    assert.equal(api.seen[0].headers['x-api-key'], 'key-1');
    assert.equal(api.seen[0].headers.authorization, undefined);
    await api.close();
});
