// A vendor's first program with @pmedia/client, installed from the tarball `./pmedia sdk` wrote into a fresh project
// outside the repository (scripts/sdk-install-test.sh). Strict TypeScript, ESM. Against the stack when
// PMEDIA_GATEWAY_URL is set: a token, a rendered video downloaded, a NOT_FOUND caught as a typed error at the root.
import { randomUUID } from 'node:crypto';
import { PmediaApiError, PmediaClient, PmediaError } from '@pmedia/client';
import { verifyWebhook, type WebhookEvent } from '@pmedia/client/webhooks';

function describe(event: WebhookEvent): string {
    switch (event.type) {
        case 'video.push': return event.data.videoUrl;
        case 'batch.task.ended': return event.data.taskId;
        case 'tryon.request.ended': return event.data.requestId;
        default: return event.type;
    }
}

// (a function, not top-level await: the same file compiles as CommonJS under node10 resolution too)
async function main(): Promise<void> {
    const baseUrl = process.env.PMEDIA_GATEWAY_URL;
    if (!baseUrl) {
        console.log(JSON.stringify({ loaded: typeof PmediaClient === 'function' && typeof verifyWebhook === 'function'
            && typeof describe === 'function' }));
        return;
    }
    const env = (name: string): string => {
        const value = process.env[name];
        if (!value) { throw new Error(`${name} is not set`); }
        return value;
    };
    const pmedia = new PmediaClient({ baseUrl, clientId: env('PMEDIA_DEMO_CLIENT_ID'), clientSecret: env('PMEDIA_DEMO_CLIENT_SECRET') });
    const token = await pmedia.accessToken();
    const video = await pmedia.renderVideo({ clientRequestId: `sdk-install-ts-${randomUUID()}`, customerId: 'sdk-install',
        userId: 'user-1', useCaseId: env('PMEDIA_DEMO_USE_CASE_ID'), data: { personalizationFields: { name: 'Ada' } } });
    const bytes = await pmedia.download(video.videoUrl!);
    let notFound = '';
    try {
        await pmedia.templates.getTemplate({ templateId: randomUUID() });
    } catch (error) {
        if (!(error instanceof PmediaError)) { throw error; }
        notFound = error instanceof PmediaApiError ? String(error.code) : error.name;
    }
    console.log(JSON.stringify({ token: token.length > 0, status: video.status, bytes: bytes.length, notFound }));
}

main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
});
