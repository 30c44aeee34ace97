-- Views worth counting (issue 33, docs/sharing.md "What counts"): a visitor (the day's salted hash of an address,
-- no user agent) has one visit of a video at a time; page views from the address within the repeat window
-- (pmedia.engagement.repeat-window) are the same visit, and what they do counts once for it. The row stays the day's
-- visitor (unique viewers) and is deleted with the other hashes after the next day.
ALTER TABLE day_visitor
    ADD COLUMN visit_started_at timestamptz,
    ADD COLUMN played           boolean          NOT NULL DEFAULT false,
    ADD COLUMN max_percent      integer          NOT NULL DEFAULT 0,
    ADD COLUMN seconds_watched  double precision NOT NULL DEFAULT 0,
    ADD COLUMN completed        boolean          NOT NULL DEFAULT false,
    ADD COLUMN clicked          boolean          NOT NULL DEFAULT false;

-- Page views by people that were a repeat of a visit (shown apart, like bot views), and the cta.clicked webhooks of
-- the current hour (at most pmedia.engagement.cta-webhooks-per-hour per video).
ALTER TABLE video_rollup
    ADD COLUMN repeat_views    bigint      NOT NULL DEFAULT 0,
    ADD COLUMN click_push_hour timestamptz,
    ADD COLUMN click_pushes    integer     NOT NULL DEFAULT 0;
ALTER TABLE video_day_rollup
    ADD COLUMN repeat_views bigint NOT NULL DEFAULT 0;
