// An endpoint for the video push (register its URL as the client's webhook-url): every push is verified with the
// webhook secret before it is believed; anything that does not verify gets 400 and is not used.
import { createServer, type Server } from 'node:http';
import { verifyWebhook } from '@pmedia/client/webhooks';
import type { VideoPush } from '@pmedia/client';
import { env, isMain } from './env.js';

export function startReceiver(port: number, webhookSecret: string, onPush: (push: VideoPush) => void): Server {
    return createServer((request, response) => {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => { body += chunk; });
        request.on('end', () => {
            try {
                onPush(verifyWebhook(request.headers, body, webhookSecret));
                response.writeHead(202).end();
            } catch {
                response.writeHead(400).end();
            }
        });
    }).listen(port, '127.0.0.1');
}

if (isMain(import.meta.url)) {
    startReceiver(Number(process.argv[2] ?? 8091), env('PMEDIA_DEMO_WEBHOOK_SECRET'),
        (push) => console.log(`video ready for ${push.userId}: ${push.videoUrl}`));
}
