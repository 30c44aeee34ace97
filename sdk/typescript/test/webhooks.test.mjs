import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../dist/esm/webhooks.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

test("the specification's example signature is what the official package computes (the Java SDK checks the same)", () => {
    const signature = new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000),
        '{"test": 2432232314}');
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

function signed(body, at = new Date()) {
    const id = 'msg_1';
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': `v1,bm90LXRoaXMtb25l ${new Webhook(secret).sign(id, at, body)}` };
}

test('a signed push verifies and is read as a typed VideoPush, from Headers or a plain record', () => {
    const body = '{"client-request-id":"r-1","user-id":"u-1","video-url":"https://s/v.mp4"}';
    const headers = signed(body);
    const push = verifyWebhook(headers, body, secret);
    assert.deepEqual(push, { clientRequestId: 'r-1', userId: 'u-1', videoUrl: 'https://s/v.mp4' });
    assert.deepEqual(verifyWebhook(new Headers(headers), new TextEncoder().encode(body), secret), push);
});

test('a changed body, another secret, an old timestamp or a missing header does not verify', () => {
    const body = '{"client-request-id":"r-1","user-id":"u-1","video-url":"https://s/v.mp4"}';
    const headers = signed(body);
    assert.throws(() => verifyWebhook(headers, body.replace('u-1', 'u-2'), secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(headers, body, 'whsec_' + btoa('another secret')), WebhookVerificationError);
    assert.throws(() => verifyWebhook(signed(body, new Date(Date.now() - 6 * 60_000)), body, secret),
        WebhookVerificationError);
    const { 'webhook-id': _, ...withoutId } = headers;
    assert.throws(() => verifyWebhook(withoutId, body, secret), WebhookVerificationError);
});
