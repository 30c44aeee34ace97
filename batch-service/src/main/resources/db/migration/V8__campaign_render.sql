-- A campaign scheduled with render 'on-view' (docs/campaigns.md, "Render"; docs/batch.md, "A campaign rendered on
-- view"): its tasks that do not say render are rendered on first view.
-- campaign_window.render: the campaign's render as its latest event says ('now' for the events of before it existed).
ALTER TABLE campaign_window ADD COLUMN render text NOT NULL DEFAULT 'now';
-- batch_task.render_asked: the task's own render field, null when it said none (it follows its campaign until its file
-- is read). render stays what the task runs as: fixed when the file is read. Tasks accepted before this took the
-- render they asked for or 'now' then, which is what they keep.
ALTER TABLE batch_task ADD COLUMN render_asked text;
UPDATE batch_task SET render_asked = render;
