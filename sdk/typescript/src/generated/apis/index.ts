/* tslint:disable */
/* eslint-disable */
export * from './AnalyticsApi.js';
export * from './AuthenticationApi.js';
export * from './BatchMediaApi.js';
export * from './CampaignsApi.js';
export * from './OperatorApi.js';
export * from './RealtimeMediaApi.js';
export * from './SharePagesApi.js';
export * from './TemplatesApi.js';
export * from './UsageApi.js';
export * from './VirtualTryOnApi.js';
export * from './WebhooksApi.js';
