// An endpoint for pmedia's webhooks (register its URL as the client's webhook-url): every event is verified with the
// webhook secret before it is believed; anything that does not verify gets 400 and is not used. verifyWebhook answers
// the event narrowed by its type: a video push, a batch task or try-on that ended, or what viewers did.
import { createServer, type Server } from 'node:http';
import { verifyWebhook, type WebhookEvent } from '@pmedia/client/webhooks';
import { env, isMain } from './env.js';

export function startReceiver(port: number, webhookSecret: string, onEvent: (event: WebhookEvent) => void): Server {
    return createServer((request, response) => {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => { body += chunk; });
        request.on('end', () => {
            try {
                onEvent(verifyWebhook(request.headers, body, webhookSecret));
                response.writeHead(202).end();
            } catch {
                response.writeHead(400).end();
            }
        });
    }).listen(port, '127.0.0.1');
}

if (isMain(import.meta.url)) {
    startReceiver(Number(process.argv[2] ?? 8091), env('PMEDIA_DEMO_WEBHOOK_SECRET'),
        (event) => {
            switch (event.type) {
                case 'video.push':
                    console.log(`video ready for ${event.data.userId}: ${event.data.videoUrl}`);
                    break;
                case 'batch.task.ended':
                    console.log(`task ${event.data.taskId} ${event.data.status}: ${event.data.processed}/${event.data.totalCount}`);
                    break;
                case 'tryon.request.ended':
                    console.log(`try-on ${event.data.requestId} ${event.data.status}`);
                    break;
                case 'video.viewed':
                case 'video.completed':
                case 'cta.clicked':
                    console.log(`${event.type} on ${event.data.shareId}: ${event.data.views} views`);
                    break;
                case 'video.rendered':
                    console.log(`rendered on first view: ${event.data.shareUrl} plays ${event.data.videoUrl}`);
                    break;
                case 'video.render-failed':
                    console.log(`render on first view failed for ${event.data.shareUrl}: ${event.data.message}`);
                    break;
                default:
                    console.log(`${event.type} (${event.webhookId})`);
            }
        });
}
