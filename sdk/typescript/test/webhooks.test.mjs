import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../dist/esm/webhooks.js';
import { PmediaError } from '../dist/esm/index.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

test("the specification's example signature is what the official package computes (the Java SDK checks the same)", () => {
    const signature = new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000),
        '{"test": 2432232314}');
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

function signed(body, type, at = new Date()) {
    const id = 'msg_1';
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': `v1,bm90LXRoaXMtb25l ${new Webhook(secret).sign(id, at, body)}` };
    if (type) { headers['webhook-event-type'] = type; }
    return headers;
}

const PUSH = '{"client-request-id":"r-1","user-id":"u-1","video-url":"https://s/v.mp4"}';

test('a signed push verifies and is read as a typed video.push event, from Headers or a plain record', () => {
    const headers = signed(PUSH, 'video.push');
    const event = verifyWebhook(headers, PUSH, secret);
    assert.equal(event.type, 'video.push');
    assert.equal(event.webhookId, 'msg_1');
    assert.ok(event.timestamp instanceof Date);
    assert.deepEqual(event.data, { clientRequestId: 'r-1', userId: 'u-1', videoUrl: 'https://s/v.mp4' });
    assert.deepEqual(verifyWebhook(new Headers(headers), new TextEncoder().encode(PUSH), secret), event);
    assert.equal(verifyWebhook(signed(PUSH), PUSH, secret).type, 'video.push', 'without the header: from the body');
});

/** Every event type of docs/openapi.yaml's WebhookEventType (and docs/webhooks.md, docs/asyncapi.yaml), and a test. */
const EVENTS = {
    'video.push': [PUSH, { clientRequestId: 'r-1', videoUrl: 'https://s/v.mp4' }],
    test: ['{"client-request-id":"pmedia-test-1","user-id":"u","video-url":"https://s/t.mp4"}', { clientRequestId: 'pmedia-test-1' }],
    'batch.task.ended': ['{"task-id":"6f1c","status":"COMPLETED","file-path":"s3://b/o.csv","total-count":3,"processed":3,"message":null}',
        { taskId: '6f1c', status: 'COMPLETED', filePath: 's3://b/o.csv', totalCount: 3, processed: 3 }],
    'tryon.request.ended': ['{"request-id":"9a2b","status":"SUCCESS","generated-output":"https://s/t.png","message":null}',
        { requestId: '9a2b', status: 'SUCCESS', generatedOutput: 'https://s/t.png' }],
    ...Object.fromEntries(['video.viewed', 'video.completed', 'cta.clicked'].map((type) => [type, [
        `{"event-type":"${type}","share-id":"uve","transaction-id":"c977","task-id":null,"row":null,"campaign-id":null,`
        + '"user-id":"u-1","views":1,"completions":0,"cta-clicks":2,"at":"2026-11-27T13:26:42.61Z"}',
        { eventType: type, shareId: 'uve', transactionId: 'c977', taskId: null, row: null, userId: 'u-1', views: 1,
            completions: 0, ctaClicks: 2 }]])),
    'video.rendered': ['{"event-type":"video.rendered","share-id":"uve","transaction-id":null,"task-id":"6f1c","row":7,'
        + '"campaign-id":"spring","user-id":"u-7","views":0,"completions":0,"cta-clicks":0,"at":"2026-11-30T09:00:00Z",'
        + '"share-url":"https://p/v/uve","video-url":"https://p/v/uve/video.mp4","message":null}',
        { eventType: 'video.rendered', shareId: 'uve', transactionId: null, taskId: '6f1c', row: 7, campaignId: 'spring',
            shareUrl: 'https://p/v/uve', videoUrl: 'https://p/v/uve/video.mp4', message: null }],
    'video.render-failed': ['{"event-type":"video.render-failed","share-id":"uvf","transaction-id":"c977","task-id":null,'
        + '"row":null,"campaign-id":null,"user-id":"u-1","views":1,"completions":0,"cta-clicks":0,"at":"2026-11-30T09:00:00Z",'
        + '"share-url":"https://p/v/uvf","video-url":null,"message":"the render on first view failed"}',
        { eventType: 'video.render-failed', shareId: 'uvf', transactionId: 'c977', views: 1, shareUrl: 'https://p/v/uvf',
            videoUrl: null, message: 'the render on first view failed' }],
};

test('every event type verifies and comes back with its type and its typed fields', () => {
    for (const [type, [body, fields]] of Object.entries(EVENTS)) {
        const event = verifyWebhook(signed(body, type), body, secret);
        assert.equal(event.type, type);
        for (const [key, value] of Object.entries(fields)) {
            assert.deepEqual(event.data[key], value, `${type}: ${key}`);
        }
    }
    const viewed = verifyWebhook(signed(EVENTS['video.viewed'][0], 'video.viewed'), EVENTS['video.viewed'][0], secret);
    assert.equal(viewed.data.at.toISOString(), '2026-11-27T13:26:42.610Z');
    const failed = verifyWebhook(signed(EVENTS['video.render-failed'][0]), EVENTS['video.render-failed'][0], secret);
    assert.equal(failed.type, 'video.render-failed', 'without the header: from the body');
    assert.equal(failed.data.at.toISOString(), '2026-11-30T09:00:00.000Z');
});

test('the unsigned webhook-event-type header must agree with the signed body', () => {
    const [body] = EVENTS['batch.task.ended'];
    assert.throws(() => verifyWebhook(signed(body, 'video.push'), body, secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(signed(PUSH, 'video.viewed'), PUSH, secret), WebhookVerificationError);
    const unknown = '{"event-type":"video.shared","share-id":"x"}';
    assert.throws(() => verifyWebhook(signed(unknown), unknown, secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(signed('[1]'), '[1]', secret), WebhookVerificationError);
});

test('a changed body, another secret, an old timestamp or a missing header does not verify; all are PmediaErrors', () => {
    const headers = signed(PUSH, 'video.push');
    assert.throws(() => verifyWebhook(headers, PUSH.replace('u-1', 'u-2'), secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(headers, PUSH, 'whsec_' + btoa('another secret')), PmediaError);
    assert.throws(() => verifyWebhook(signed(PUSH, 'video.push', new Date(Date.now() - 6 * 60_000)), PUSH, secret),
        WebhookVerificationError);
    const { 'webhook-id': _, ...withoutId } = headers;
    assert.throws(() => verifyWebhook(withoutId, PUSH, secret), WebhookVerificationError);
});
