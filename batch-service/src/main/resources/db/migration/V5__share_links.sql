-- Share links of batch rows (docs/sharing.md): each rendered row's share id is derived from a random key of its task
-- (HMAC-SHA256 of the row number), so writing an output file again gives the same links, and nobody without the key
-- can guess one. expires_at: the end of the task's videos' retention (their objects are deleted then).
ALTER TABLE batch_task
    ADD COLUMN share_key  bytea,
    ADD COLUMN expires_at timestamptz;
CREATE INDEX batch_task_expiring ON batch_task (expires_at) WHERE expires_at IS NOT NULL;
