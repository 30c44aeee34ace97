-- Render on first view (docs/batch.md, "Render on first view"; issue 37): a task of render 'on-view' stores its rows
-- 'ON-VIEW' (a share link, no render), writes its output file at once, and renders a row when its link is first
-- opened ('RENDERING', on the realtime lane), then 'SUCCESS' or 'FAILURE' like any row.
-- viewed: rows whose link was opened (a render asked for); rendered / render_failed: the outcomes of those renders.
ALTER TABLE batch_task
    ADD COLUMN render        text    NOT NULL DEFAULT 'now',
    ADD COLUMN viewed        integer NOT NULL DEFAULT 0,
    ADD COLUMN rendered      integer NOT NULL DEFAULT 0,
    ADD COLUMN render_failed integer NOT NULL DEFAULT 0;
-- On-view renders whose result did not come back in time (a worker died): asked again, like lost batch rows.
CREATE INDEX batch_row_rendering ON batch_row (submitted_at) WHERE status = 'RENDERING';
