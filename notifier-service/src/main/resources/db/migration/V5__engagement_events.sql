-- Issue 21. Engagement webhooks (docs/sharing.md): a shared video's first view, its first completion, and each page
-- view's click of its call to action, for the endpoints that subscribe to them.
ALTER TABLE webhook_delivery DROP CONSTRAINT webhook_delivery_kind_check;
ALTER TABLE webhook_delivery ADD CONSTRAINT webhook_delivery_kind_check
    CHECK (kind IN ('video.push', 'test', 'batch.task.ended', 'tryon.request.ended', 'video.viewed',
                    'video.completed', 'cta.clicked'));
