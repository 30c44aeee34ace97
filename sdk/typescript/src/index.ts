// @pmedia/client: the operations and models generated from the contract (./generated, never edited), and the
// hand-written layer on top. Webhook verification is in '@pmedia/client/webhooks' (it needs `standardwebhooks`).
export * from './generated/index.js';
export { PmediaClient } from './client.js';
export type { BatchFile, CallOptions, PmediaClientOptions, RetryEvent, RetryOptions, WaitOptions } from './client.js';
export { PmediaApiError, PmediaError, RenderFailedError, TaskFailedError } from './errors.js';
export type { ErrorBody } from './errors.js';
