-- Render on first view for a campaign (docs/campaigns.md, "Render"; issue 37): how the campaign's batch tasks that do
-- not say render are rendered. Every schedule before this one rendered now.
ALTER TABLE campaign_schedule
    ADD COLUMN render text NOT NULL DEFAULT 'now' CHECK (render IN ('now', 'on-view'));
