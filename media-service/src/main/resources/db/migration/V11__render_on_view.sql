-- Render on first view (docs/sharing.md, "Render on first view"; issue 37): a request with render 'on-view' is accepted
-- with its share link and no render job; the first open of the link (engagement-service's RenderOnView) or the owner's
-- GET /status claims it (render_claimed_at from null, a conditional UPDATE: a repeated or forged claim renders nothing)
-- and its job goes out in that transaction. Until then it is PROCESSING without a render to lose, so the stale-render
-- sweep's index leaves it out.
ALTER TABLE media_request
    ADD COLUMN render            text NOT NULL DEFAULT 'now' CHECK (render IN ('now', 'on-view')),
    ADD COLUMN render_claimed_at timestamptz;

DROP INDEX media_request_processing;
CREATE INDEX media_request_rendering ON media_request (updated_at)
    WHERE status = 'PROCESSING' AND (render = 'now' OR render_claimed_at IS NOT NULL);
