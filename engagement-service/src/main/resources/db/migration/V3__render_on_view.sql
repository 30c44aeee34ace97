-- Render on first view (docs/sharing.md, "Render on first view"; issue 37). render: 'on-view' (no video yet: the
-- first open asks its owner to render it), 'failed' (that render failed: the page offers a retry), null (rendered as
-- asked). render_requested_at: when an open claimed the render (the claim is this column changing from null, so fifty
-- opens at once, on any number of replicas, are one request); render_attempts: claims so far (the first, then retries).
ALTER TABLE shared_video
    ADD COLUMN render              text CHECK (render IN ('on-view', 'failed')),
    ADD COLUMN render_requested_at timestamptz,
    ADD COLUMN render_attempts     integer NOT NULL DEFAULT 0;
