// Every operation of docs/openapi.yaml: its method, its path template, and whether the document marks it
// `x-pmedia-idempotent: true`. Generated from the document (sdk/typescript/templates/operations.mustache); never edited
// by hand. src/operations.ts reads it to decide which requests are sent again after a 429 or 503.

export interface ContractOperation {
    operationId: string;
    method: string;
    /** The path template, e.g. `/templates/{templateId}/preview`. */
    path: string;
    /**
     * `x-pmedia-idempotent: true`: a POST (or PATCH) that is safe to send twice. GET, HEAD, PUT and DELETE are
     * idempotent by HTTP and are not marked.
     */
    markedIdempotent: boolean;
}

export const CONTRACT_OPERATIONS: ReadonlyArray<ContractOperation> = [
    { operationId: 'campaignAnalytics', method: 'GET', path: '/analytics/campaigns/{campaignId}', markedIdempotent: false },
    { operationId: 'campaignVideosCsv', method: 'GET', path: '/analytics/campaigns/{campaignId}/videos.csv', markedIdempotent: false },
    { operationId: 'templateAnalytics', method: 'GET', path: '/analytics/templates/{templateId}', markedIdempotent: false },
    { operationId: 'videoAnalytics', method: 'GET', path: '/analytics/videos/{transactionId}', markedIdempotent: false },
    { operationId: 'createToken', method: 'POST', path: '/auth/token', markedIdempotent: true },
    { operationId: 'getAccount', method: 'GET', path: '/account', markedIdempotent: false },
    { operationId: 'getJwks', method: 'GET', path: '/.well-known/jwks.json', markedIdempotent: false },
    { operationId: 'getTokenEarlierForm', method: 'GET', path: '/getToken', markedIdempotent: false },
    { operationId: 'cancelTask', method: 'POST', path: '/media/task/cancel/{taskId}', markedIdempotent: false },
    { operationId: 'createTask', method: 'POST', path: '/media/task/create', markedIdempotent: false },
    { operationId: 'createTaskUpload', method: 'POST', path: '/media/task/uploads', markedIdempotent: true },
    { operationId: 'getTaskStatus', method: 'GET', path: '/media/task/status/{taskId}', markedIdempotent: false },
    { operationId: 'listTasks', method: 'GET', path: '/media/tasks', markedIdempotent: false },
    { operationId: 'getCampaignSchedule', method: 'GET', path: '/campaigns/{campaign_id}/schedule', markedIdempotent: false },
    { operationId: 'listCampaigns', method: 'GET', path: '/campaigns', markedIdempotent: false },
    { operationId: 'scheduleCampaign', method: 'POST', path: '/campaigns/{campaign_id}/schedule', markedIdempotent: false },
    { operationId: 'createClient', method: 'POST', path: '/admin/clients', markedIdempotent: false },
    { operationId: 'deleteClient', method: 'DELETE', path: '/admin/clients/{clientId}', markedIdempotent: false },
    { operationId: 'getAnyTemplate', method: 'GET', path: '/admin/templates/{useCaseId}', markedIdempotent: false },
    { operationId: 'getClient', method: 'GET', path: '/admin/clients/{clientId}', markedIdempotent: false },
    { operationId: 'listAllTemplates', method: 'GET', path: '/admin/templates', markedIdempotent: false },
    { operationId: 'listClients', method: 'GET', path: '/admin/clients', markedIdempotent: false },
    { operationId: 'listDeadLetters', method: 'GET', path: '/admin/webhooks/dead-letters', markedIdempotent: false },
    { operationId: 'listFonts', method: 'GET', path: '/admin/fonts', markedIdempotent: false },
    { operationId: 'listSharedMotions', method: 'GET', path: '/admin/motions', markedIdempotent: false },
    { operationId: 'listUsage', method: 'GET', path: '/admin/usage', markedIdempotent: false },
    { operationId: 'registerFont', method: 'POST', path: '/admin/fonts', markedIdempotent: false },
    { operationId: 'registerSharedMotion', method: 'POST', path: '/admin/motions', markedIdempotent: false },
    { operationId: 'registerTemplate', method: 'POST', path: '/admin/templates', markedIdempotent: false },
    { operationId: 'replayDeadLetter', method: 'POST', path: '/admin/webhooks/dead-letters/{deliveryId}/replay', markedIdempotent: false },
    { operationId: 'rotateClientApiKey', method: 'POST', path: '/admin/clients/{clientId}/rotate-api-key', markedIdempotent: false },
    { operationId: 'rotateClientSecret', method: 'POST', path: '/admin/clients/{clientId}/rotate-secret', markedIdempotent: false },
    { operationId: 'rotateClientWebhookSecret', method: 'POST', path: '/admin/clients/{clientId}/rotate-webhook-secret', markedIdempotent: false },
    { operationId: 'updateClient', method: 'PATCH', path: '/admin/clients/{clientId}', markedIdempotent: false },
    { operationId: 'createMedia', method: 'POST', path: '/media/demo', markedIdempotent: true },
    { operationId: 'createVideoEarlierForm', method: 'POST', path: '/video/demo', markedIdempotent: true },
    { operationId: 'getMediaStatus', method: 'GET', path: '/status/{transactionId}', markedIdempotent: false },
    { operationId: 'getRequestTimeline', method: 'GET', path: '/media/requests/{transactionId}/events', markedIdempotent: false },
    { operationId: 'listMediaRequests', method: 'GET', path: '/media/requests', markedIdempotent: false },
    { operationId: 'revokeShare', method: 'DELETE', path: '/media/{transactionId}/share', markedIdempotent: false },
    { operationId: 'recordViewerEvent', method: 'POST', path: '/v/{shareId}/events', markedIdempotent: false },
    { operationId: 'shareCaptions', method: 'GET', path: '/v/{shareId}/captions.vtt', markedIdempotent: false },
    { operationId: 'shareEmailGif', method: 'GET', path: '/v/{shareId}/email.gif', markedIdempotent: false },
    { operationId: 'sharePage', method: 'GET', path: '/v/{shareId}', markedIdempotent: false },
    { operationId: 'sharePageEmbed', method: 'GET', path: '/v/{shareId}/embed', markedIdempotent: false },
    { operationId: 'sharePoster', method: 'GET', path: '/v/{shareId}/poster.jpg', markedIdempotent: false },
    { operationId: 'shareRenderRetry', method: 'POST', path: '/v/{shareId}/render', markedIdempotent: false },
    { operationId: 'shareRenderState', method: 'GET', path: '/v/{shareId}/state', markedIdempotent: false },
    { operationId: 'shareVideo', method: 'GET', path: '/v/{shareId}/video.mp4', markedIdempotent: false },
    { operationId: 'getTemplate', method: 'GET', path: '/templates/{templateId}', markedIdempotent: false },
    { operationId: 'listMotions', method: 'GET', path: '/motions', markedIdempotent: false },
    { operationId: 'listTemplates', method: 'GET', path: '/templates', markedIdempotent: false },
    { operationId: 'previewTemplate', method: 'POST', path: '/templates/{templateId}/preview', markedIdempotent: true },
    { operationId: 'registerMotion', method: 'POST', path: '/motions', markedIdempotent: false },
    { operationId: 'registerOwnTemplate', method: 'POST', path: '/templates', markedIdempotent: false },
    { operationId: 'getUsage', method: 'GET', path: '/usage', markedIdempotent: false },
    { operationId: 'createTryOn', method: 'POST', path: '/vton/request', markedIdempotent: false },
    { operationId: 'getTryOnStatus', method: 'GET', path: '/vton/status/{requestId}', markedIdempotent: false },
    { operationId: 'listTryOns', method: 'GET', path: '/vton/requests', markedIdempotent: false },
    { operationId: 'getWebhookEndpoint', method: 'GET', path: '/webhooks/endpoint', markedIdempotent: false },
    { operationId: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/deliveries', markedIdempotent: false },
    { operationId: 'recoverWebhookDeliveries', method: 'POST', path: '/webhooks/deliveries/recover', markedIdempotent: false },
    { operationId: 'replaceWebhookEndpoint', method: 'PUT', path: '/webhooks/endpoint', markedIdempotent: false },
    { operationId: 'replayWebhookDelivery', method: 'POST', path: '/webhooks/deliveries/{deliveryId}/replay', markedIdempotent: false },
    { operationId: 'rotateWebhookEndpointSecret', method: 'POST', path: '/webhooks/endpoint/rotate-secret', markedIdempotent: false },
    { operationId: 'testWebhook', method: 'POST', path: '/webhooks/test', markedIdempotent: false },
    { operationId: 'testWebhookEndpoint', method: 'POST', path: '/webhooks/endpoint/test', markedIdempotent: false },
];
