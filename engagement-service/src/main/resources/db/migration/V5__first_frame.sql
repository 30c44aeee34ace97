-- Time to first frame (docs/sharing.md, "Rollups"; docs/decisions.md, "Time to first frame as a histogram"): a page
-- view's first-frame event carries the milliseconds from its navigation start to its first video frame and where the
-- frame came from (the stream of a link still rendering, or the rendered MP4), and counts once per page view.
ALTER TABLE viewer_event
    ADD COLUMN first_frame_ms     integer,
    ADD COLUMN first_frame_source text;
ALTER TABLE view_session
    ADD COLUMN first_frame boolean NOT NULL DEFAULT false;

-- First frames per video (and per video and day) in fixed buckets of milliseconds: le_ms is a bucket's upper bound
-- (FirstFrameHistogram.BOUNDS, the last 600000, the longest a page reports). Histograms add up, so a template's or a
-- campaign's percentiles come from the sum of its videos' rows. Only the buckets that have first frames have a row.
CREATE TABLE video_first_frame (
    share_id text   NOT NULL,
    source   text   NOT NULL CHECK (source IN ('stream', 'video')),
    le_ms    integer NOT NULL,
    frames   bigint NOT NULL,
    PRIMARY KEY (share_id, source, le_ms)
);

CREATE TABLE video_day_first_frame (
    share_id text   NOT NULL,
    day      date   NOT NULL,
    source   text   NOT NULL CHECK (source IN ('stream', 'video')),
    le_ms    integer NOT NULL,
    frames   bigint NOT NULL,
    PRIMARY KEY (share_id, day, source, le_ms)
);
