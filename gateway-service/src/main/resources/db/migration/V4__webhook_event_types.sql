-- The events a client's webhook endpoint subscribes to (issue 22), one wire name a line, kept with its URL and secrets:
-- the registry is the one place a vendor's endpoint lives (docs/decisions.md). Existing clients keep the video push.
ALTER TABLE client ADD COLUMN webhook_event_types TEXT NOT NULL DEFAULT 'video.push';
