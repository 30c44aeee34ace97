// One personalized video: created, waited for (polling with backoff), and its URLs.
import { randomUUID } from 'node:crypto';
import { PmediaClient, type MediaStatus } from '@pmedia/client';
import { env, isMain } from './env.js';

/** The walk-through's render: a video for Ada with her offer. */
export function render(pmedia: PmediaClient, useCaseId: string, clientRequestId: string): Promise<MediaStatus> {
    return pmedia.renderVideo({
        clientRequestId,
        customerId: 'customer-42',
        userId: 'user-7',
        useCaseId,
        data: { personalizationFields: { name: 'Ada', offer: '20% off' } },
    });
}

if (isMain(import.meta.url)) {
    const pmedia = new PmediaClient({
        baseUrl: env('PMEDIA_GATEWAY_URL'),
        clientId: env('PMEDIA_DEMO_CLIENT_ID'),
        clientSecret: env('PMEDIA_DEMO_CLIENT_SECRET'),
    });
    const video = await render(pmedia, env('PMEDIA_DEMO_USE_CASE_ID'), randomUUID());
    console.log('video: ', video.videoUrl);
    console.log('stream:', video.streamUrl);
}
