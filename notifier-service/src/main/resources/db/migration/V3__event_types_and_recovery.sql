-- Issue 22. Deliveries of more events than the video push: a batch task or a try-on request that ended. Recovery
-- (POST /webhooks/deliveries/recover) puts FAILED and EXHAUSTED deliveries back on the schedule for one more attempt,
-- remembering what they were: an attempt that fails again leaves them as they were, without a second dead letter.
ALTER TABLE webhook_delivery DROP CONSTRAINT webhook_delivery_kind_check;
ALTER TABLE webhook_delivery ADD CONSTRAINT webhook_delivery_kind_check
    CHECK (kind IN ('video.push', 'test', 'batch.task.ended', 'tryon.request.ended'));
ALTER TABLE webhook_delivery ADD COLUMN recover_from TEXT CHECK (recover_from IN ('FAILED', 'EXHAUSTED'));
ALTER TABLE webhook_attempt DROP CONSTRAINT webhook_attempt_trigger_check;
ALTER TABLE webhook_attempt ADD CONSTRAINT webhook_attempt_trigger_check
    CHECK (trigger IN ('scheduled', 'replay', 'test', 'recover'));
