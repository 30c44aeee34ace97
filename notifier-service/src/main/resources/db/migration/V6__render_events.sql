-- Issue 37. The end of a render on first view (docs/webhooks.md, "Renders on first view"): a link's video came
-- (video.rendered) or its render failed (video.render-failed), for the endpoints that subscribe to them.
ALTER TABLE webhook_delivery DROP CONSTRAINT webhook_delivery_kind_check;
ALTER TABLE webhook_delivery ADD CONSTRAINT webhook_delivery_kind_check
    CHECK (kind IN ('video.push', 'test', 'batch.task.ended', 'tryon.request.ended', 'video.viewed',
                    'video.completed', 'cta.clicked', 'video.rendered', 'video.render-failed'));
