-- Admission of renders on view (docs/media.md, "Render on first view"; issue 37): a claimed first view waits until
-- the realtime lane has room for it (renders on view in flight under a bound per render worker), then its job goes out
-- and render_admitted_at is set. Claims made before this change were admitted at once. The stale-render sweep looks
-- only at renders whose job is out.
ALTER TABLE media_request ADD COLUMN render_admitted_at timestamptz;
UPDATE media_request SET render_admitted_at = render_claimed_at WHERE render_claimed_at IS NOT NULL;

DROP INDEX media_request_rendering;
CREATE INDEX media_request_rendering ON media_request (updated_at)
    WHERE status = 'PROCESSING' AND (render = 'now' OR render_admitted_at IS NOT NULL);
CREATE INDEX media_request_views_waiting ON media_request (render_claimed_at, id)
    WHERE status = 'PROCESSING' AND render = 'on-view' AND render_claimed_at IS NOT NULL
      AND render_admitted_at IS NULL;
CREATE INDEX media_request_views_in_flight ON media_request (render_admitted_at)
    WHERE status = 'PROCESSING' AND render = 'on-view' AND render_admitted_at IS NOT NULL;
