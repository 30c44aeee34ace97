-- The stream of a video rendered on view (docs/sharing.md, "Render on first view"): the key of the HLS playlist its
-- render writes while it runs, as its owner named it in the page event; the page plays it before the video is ready.
-- Null for a video rendered as asked.
ALTER TABLE shared_video
    ADD COLUMN stream_key text;
