// Verifies the pushes pmedia sends to a vendor's webhook-url with the official Standard Webhooks package
// (`standardwebhooks`, installed beside @pmedia/client by a webhook receiver): the v1 HMAC-SHA256 signature over
// "{webhook-id}.{webhook-timestamp}.{body}" keyed with the whsec_ secret, any of the signatures matching, and a
// timestamp within five minutes of now.
import { Webhook, WebhookVerificationError as StandardWebhooksError } from 'standardwebhooks';
import { PmediaError } from './errors.js';
import { VideoPushFromJSON, type VideoPush } from './generated/models/VideoPush.js';

/** A webhook request that does not verify. */
export class WebhookVerificationError extends PmediaError {
    constructor(message: string, options?: { cause?: unknown }) {
        super(message, options);
        this.name = 'WebhookVerificationError';
    }
}

/** Headers as fetch's Request, Node's IncomingMessage or a framework hold them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a video push and reads it.
 *
 * @param headers the request's headers (webhook-id, webhook-timestamp, webhook-signature)
 * @param body the raw body exactly as received, not parsed and serialized again
 * @param secret the client's webhook secret, `whsec_...`
 * @returns the push (interface 2.7): clientRequestId, userId, videoUrl
 * @throws WebhookVerificationError when it does not verify
 */
export function verifyWebhook(headers: WebhookHeaders, body: string | Uint8Array, secret: string): VideoPush {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    let payload: unknown;
    try {
        payload = new Webhook(secret).verify(text, plain(headers));
    } catch (error) {
        if (error instanceof StandardWebhooksError) {
            throw new WebhookVerificationError(`the webhook does not verify: ${error.message}`, { cause: error });
        }
        throw error;
    }
    return VideoPushFromJSON(payload);
}

function plain(headers: WebhookHeaders): Record<string, string> {
    const result: Record<string, string> = {};
    if (typeof Headers !== 'undefined' && headers instanceof Headers) {
        headers.forEach((value, name) => { result[name.toLowerCase()] = value; });
        return result;
    }
    for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
        if (value !== undefined) {
            result[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
        }
    }
    return result;
}
