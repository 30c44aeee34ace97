// Verifies the pushes pmedia sends to a vendor's webhook-url with the official Standard Webhooks package
// (`standardwebhooks`, installed beside @pmedia/client by a webhook receiver): the v1 HMAC-SHA256 signature over
// "{webhook-id}.{webhook-timestamp}.{body}" keyed with the whsec_ secret, any of the signatures matching, and a
// timestamp within five minutes of now.
import { Webhook, WebhookVerificationError as StandardWebhooksError } from 'standardwebhooks';
import { PmediaError } from './errors.js';
import { TaskStatusFromJSON, type TaskStatus } from './generated/models/TaskStatus.js';
import { TryOnStatusFromJSON, type TryOnStatus } from './generated/models/TryOnStatus.js';
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
 * What a viewer did on a share page (docs/webhooks.md, "Engagement events"; docs/asyncapi.yaml): the video's
 * counters when the event was reached. `transactionId` is the realtime request's service-request-id (null for a batch
 * row, which has `taskId`, `row` and `campaignId`).
 */
export interface EngagementEvent {
    eventType: 'video.viewed' | 'video.completed' | 'cta.clicked';
    shareId: string;
    transactionId: string | null;
    taskId: string | null;
    row: number | null;
    campaignId: string | null;
    userId: string | null;
    views: number;
    completions: number;
    ctaClicks: number;
    at: Date;
}

/**
 * The end of a render on first view (docs/webhooks.md, "Renders on first view"): an engagement event's fields, then
 * the link (`shareUrl`), its stable video URL (`videoUrl`, `video.rendered` only: a redirect to the file) and what
 * happened (`message`, `video.render-failed` only).
 */
export interface RenderEvent extends Omit<EngagementEvent, 'eventType'> {
    eventType: 'video.rendered' | 'video.render-failed';
    shareUrl: string;
    videoUrl: string | null;
    message: string | null;
}

/** Every event type a webhook endpoint may receive (WebhookEventType of docs/openapi.yaml), and `test`. */
export type WebhookEventType = WebhookEvent['type'];

interface Delivery<T extends string, D> {
    /** The event type (the `webhook-event-type` header, checked against the signed body). */
    type: T;
    /** The `webhook-id` header: the same on every retry and replay of one delivery; drop duplicates by it. */
    webhookId: string;
    /** The `webhook-timestamp` of this attempt. */
    timestamp: Date;
    data: D;
}

/**
 * A verified webhook, narrowed by `type`:
 * `video.push` and `test` (interface 2.7: clientRequestId, userId, videoUrl; a test's clientRequestId starts with
 * `pmedia-test-`), `batch.task.ended` (the 2.8 task status), `tryon.request.ended` (the 2.9 status),
 * `video.viewed`, `video.completed` and `cta.clicked` (an {@link EngagementEvent}), `video.rendered` and
 * `video.render-failed` (a {@link RenderEvent}).
 */
export type WebhookEvent =
    | Delivery<'video.push', VideoPush>
    | Delivery<'test', VideoPush>
    | Delivery<'batch.task.ended', TaskStatus>
    | Delivery<'tryon.request.ended', TryOnStatus>
    | Delivery<'video.viewed', EngagementEvent>
    | Delivery<'video.completed', EngagementEvent>
    | Delivery<'cta.clicked', EngagementEvent>
    | Delivery<'video.rendered', RenderEvent>
    | Delivery<'video.render-failed', RenderEvent>;

const NAMED = new Set(['video.viewed', 'video.completed', 'cta.clicked', 'video.rendered', 'video.render-failed']);

/**
 * Checks a webhook and reads it as the event it is.
 *
 * The type comes from the signed body (an engagement event names itself in `event-type`; a task status has
 * `task-id`, a try-on status `request-id`, a video push `video-url`); the unsigned `webhook-event-type` header, when
 * present, must agree with it, or the webhook does not verify.
 *
 * @param headers the request's headers (webhook-id, webhook-timestamp, webhook-signature, webhook-event-type)
 * @param body the raw body exactly as received, not parsed and serialized again
 * @param secret the client's webhook secret, `whsec_...`
 * @returns the event, narrowed by its `type`, with the body in `data`
 * @throws WebhookVerificationError when it does not verify or is no event pmedia sends
 */
export function verifyWebhook(headers: WebhookHeaders, body: string | Uint8Array, secret: string): WebhookEvent {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    const plainHeaders = plain(headers);
    let payload: unknown;
    try {
        payload = new Webhook(secret).verify(text, plainHeaders);
    } catch (error) {
        if (error instanceof StandardWebhooksError) {
            throw new WebhookVerificationError(`the webhook does not verify: ${error.message}`, { cause: error });
        }
        throw error;
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
        throw new WebhookVerificationError('the webhook verifies but its body is not a JSON object');
    }
    const json = payload as Record<string, unknown>;
    const header = plainHeaders['webhook-event-type'];
    const type = typeOf(json, header);
    if (header !== undefined && header !== type) {
        throw new WebhookVerificationError(`the webhook-event-type header says ${header} but the signed body is ${type}`);
    }
    const envelope = { webhookId: plainHeaders['webhook-id'],
        timestamp: new Date(Number(plainHeaders['webhook-timestamp']) * 1000) };
    switch (type) {
        case 'video.push':
        case 'test':
            return { type, ...envelope, data: VideoPushFromJSON(json) };
        case 'batch.task.ended':
            return { type, ...envelope, data: TaskStatusFromJSON(json) };
        case 'tryon.request.ended':
            return { type, ...envelope, data: TryOnStatusFromJSON(json) };
        case 'video.rendered':
        case 'video.render-failed':
            return { type, ...envelope, data: render(json, type) };
        default:
            return { type, ...envelope, data: engagement(json, type) };
    }
}

/** The event type of a signed body; `test` only where the header says so (a test is a video push's body). */
function typeOf(json: Record<string, unknown>, header: string | undefined): WebhookEventType {
    const named = json['event-type'];
    if (typeof named === 'string') {
        if (!NAMED.has(named)) {
            throw new WebhookVerificationError(`the webhook verifies but its event-type ${named} is no event pmedia sends`);
        }
        return named as EngagementEvent['eventType'] | RenderEvent['eventType'];
    }
    if ('task-id' in json) {
        return 'batch.task.ended';
    }
    if ('request-id' in json) {
        return 'tryon.request.ended';
    }
    if ('video-url' in json && 'client-request-id' in json) {
        return header === 'test' ? 'test' : 'video.push';
    }
    throw new WebhookVerificationError('the webhook verifies but its body is no event pmedia sends');
}

function text(json: Record<string, unknown>, key: string): string | null {
    return typeof json[key] === 'string' ? json[key] as string : null;
}

/** What every event about a shared video carries. */
function videoFields(json: Record<string, unknown>): Omit<EngagementEvent, 'eventType'> {
    const count = (key: string): number => (typeof json[key] === 'number' ? json[key] as number : 0);
    return {
        shareId: text(json, 'share-id') ?? '',
        transactionId: text(json, 'transaction-id'),
        taskId: text(json, 'task-id'),
        row: typeof json.row === 'number' ? json.row : null,
        campaignId: text(json, 'campaign-id'),
        userId: text(json, 'user-id'),
        views: count('views'),
        completions: count('completions'),
        ctaClicks: count('cta-clicks'),
        at: new Date(String(json.at)),
    };
}

function engagement(json: Record<string, unknown>, type: EngagementEvent['eventType']): EngagementEvent {
    return { eventType: type, ...videoFields(json) };
}

function render(json: Record<string, unknown>, type: RenderEvent['eventType']): RenderEvent {
    return { eventType: type, ...videoFields(json), shareUrl: text(json, 'share-url') ?? '',
        videoUrl: text(json, 'video-url'), message: text(json, 'message') };
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
