// The examples of sdk/typescript/README.md against the running stack, through the gateway, as a vendor of its own
// (onboarded here with the SDK's operator calls, its webhook-url the example receiver): a token, a personalized video
// that plays, its push verified, a batch of three rows with its output file, a 429 retried after Retry-After, and an
// error answer surfaced as a typed error with its body. scripts/e2e.sh runs it (npm test) after building the SDK.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PmediaApiError, PmediaClient } from '@pmedia/client';
import { render } from '../dist/video.js';
import { batchOfThree } from '../dist/batch.js';
import { startReceiver } from '../dist/webhook-receiver.js';

const env = Object.fromEntries(readFileSync(new URL('../../../../.pmedia/local.env', import.meta.url), 'utf8')
    .split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')),
        line.slice(line.indexOf('=') + 1)]));
const baseUrl = env.PMEDIA_GATEWAY_URL;
const operator = new PmediaClient({ baseUrl, adminToken: env.PMEDIA_ADMIN_TOKEN });
const pushes = new Map();
let vendor;
let receiver;

const onboard = (name) => operator.operator.createClient({ newClient: { name } });
const vendorClient = (client, retry) => new PmediaClient({ baseUrl, clientId: client.clientId,
    clientSecret: client.clientSecret, retry });
const waitFor = async (what, condition, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
};

before(async () => {
    vendor = await onboard(`sdk-ts-examples ${randomUUID()}`);
    receiver = startReceiver(0, vendor.webhookSecret, (event) => {
        if (event.type === 'video.push') { pushes.set(event.data.clientRequestId, event.data); }
    });
    await new Promise((resolve) => receiver.once('listening', resolve));
    await operator.operator.updateClient({ clientId: vendor.clientId,
        clientUpdate: { webhookUrl: `http://127.0.0.1:${receiver.address().port}/video-push` } });
});

after(async () => {
    receiver?.close();
    if (vendor) await operator.operator.deleteClient({ clientId: vendor.clientId });
});

test('the token example gets a token and keeps it', async () => {
    const pmedia = vendorClient(vendor);
    const token = await pmedia.accessToken();
    assert.equal(token.split('.').length, 3);
    assert.equal(await pmedia.accessToken(), token);
});

test('the personalized video renders to a playable MP4 and its push verifies', async () => {
    const pmedia = vendorClient(vendor);
    const requestId = `sdk-ts-${randomUUID()}`;
    const video = await render(pmedia, env.PMEDIA_DEMO_USE_CASE_ID, requestId);
    assert.equal(video.status, 'SUCCESS');
    assert.ok(video.streamUrl);
    const dir = mkdtempSync(join(tmpdir(), 'sdk-ts-'));
    try {
        writeFileSync(join(dir, 'video.mp4'), await pmedia.download(video.videoUrl));
        const probe = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration',
            '-of', 'default=noprint_wrappers=1', join(dir, 'video.mp4')], { encoding: 'utf8' });
        assert.match(probe, /h264/);
        assert.match(probe, /aac/);
        assert.match(probe, /duration=(9\.9|10\.)/);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
    await waitFor('the verified push', () => pushes.has(requestId), 60_000);
    assert.equal(pushes.get(requestId).userId, 'user-7');
    assert.match(pushes.get(requestId).videoUrl, /^http/);
});

test('the batch of three completes and its output file lists every row', async () => {
    const pmedia = vendorClient(vendor);
    const progress = [];
    const done = await batchOfThree(pmedia, env.PMEDIA_DEMO_TEMPLATE_ID, (status) => progress.push(status));
    assert.equal(done.status, 'COMPLETED');
    assert.equal(done.processed, 3);
    assert.equal(progress.at(-1), done);
    const output = await pmedia.readOutput(done);
    assert.equal(output.split('\n').filter((line) => line.includes(',SUCCESS,')).length, 3);
    for (const user of ['u-1', 'u-2', 'u-3']) assert.match(output, new RegExp(user));
});

// The vendor's budget for calls that start work (100, then 20/s) is drained with creates the gateway refuses after
// counting them (malformed JSON); the SDK's realtime create then meets a 429, waits its Retry-After and goes
// through: the create is idempotent by client-request-id, so the SDK retries it.
test('a realtime create that meets a 429 is retried after Retry-After', async () => {
    const flooded = await onboard(`sdk-ts-429 ${randomUUID()}`);
    try {
        const retries = [];
        let draining = true;
        const pmedia = vendorClient(flooded, { onRetry: (event) => {
            retries.push(event);
            draining = false;
        } });
        const token = await pmedia.accessToken();
        for (let round = 0; round < 5 && !retries.some((r) => r.status === 429 && r.url.endsWith('/media/demo'));
            round++) {
            draining = true;
            let refused = 0;
            const drainer = async () => {
                for (let sent = 0; draining && sent < 5_000; sent++) {
                    const answer = await fetch(`${baseUrl}/media/demo`, { method: 'POST', body: '{',
                        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } });
                    await answer.arrayBuffer();
                    if (answer.status === 429) refused++;
                }
            };
            const drainers = [drainer(), drainer(), drainer()];
            await waitFor('a 429 for the drainers', () => refused > 0, 30_000);
            const video = await render(pmedia, env.PMEDIA_DEMO_USE_CASE_ID, `sdk-ts-429-${randomUUID()}`);
            draining = false;
            await Promise.all(drainers);
            assert.equal(video.status, 'SUCCESS');
        }
        const retried = retries.find((r) => r.status === 429 && r.url.endsWith('/media/demo'));
        assert.ok(retried, `a 429 on POST /media/demo was retried: ${JSON.stringify(retries)}`);
        assert.ok(retried.waitMs >= 1000, `after its Retry-After: ${retried.waitMs} ms`);
    } finally {
        await operator.operator.deleteClient({ clientId: flooded.clientId });
    }
});

test('an error answer is a typed PmediaApiError carrying the error body', async () => {
    const pmedia = vendorClient(vendor);
    const missing = await pmedia.waitForVideo('no-such-request').catch((e) => e);
    assert.ok(missing instanceof PmediaApiError, String(missing));
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'NOT_FOUND');
    assert.equal(missing.body.error, true);
    assert.ok(missing.body.timestamp);
    const invalid = await pmedia.createTask({ campaignId: 'c', templateId: env.PMEDIA_DEMO_TEMPLATE_ID,
        filePath: 's3://x/y', rowCount: 0, expectedOutputDuration: 1 }).catch((e) => e);
    assert.ok(invalid instanceof PmediaApiError, String(invalid));
    assert.equal(invalid.code, 'VALIDATION_ERROR');
    assert.match(invalid.message, /row-count/);
});
