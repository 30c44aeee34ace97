// A client from the base URL and the client credentials; it fetches, caches and refreshes the token itself.
import { PmediaClient } from '@pmedia/client';
import { env, isMain } from './env.js';

if (isMain(import.meta.url)) {
    const pmedia = new PmediaClient({
        baseUrl: env('PMEDIA_GATEWAY_URL'),
        clientId: env('PMEDIA_DEMO_CLIENT_ID'),
        clientSecret: env('PMEDIA_DEMO_CLIENT_SECRET'),
    });
    console.log('access token:', await pmedia.accessToken());
}
