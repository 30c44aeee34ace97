-- The retention sweep of batch videos (docs/sharing.md): when a task's expires_at has passed, its rows' objects
-- (videos, thumbnails, renditions, captions, streams) are deleted and videos_deleted_at says when; the task, its counts
-- and its output file stay. The partial index is the sweep's claim: tasks past their end whose objects are still kept.
ALTER TABLE batch_task ADD COLUMN videos_deleted_at timestamptz;
DROP INDEX batch_task_expiring;
CREATE INDEX batch_task_expiring ON batch_task (expires_at) WHERE expires_at IS NOT NULL AND videos_deleted_at IS NULL;
