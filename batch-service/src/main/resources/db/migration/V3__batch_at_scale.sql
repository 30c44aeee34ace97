-- Batch at scale (docs/batch.md, issue 11): deadlines and progress, leases for the long steps (reading the file,
-- writing the output), and the outcome times that measure the lane's pace.
ALTER TABLE batch_task
    ADD COLUMN due_at             timestamptz,
    -- When its rows were stored (IN PROGRESS): the task's pace is measured from here.
    ADD COLUMN started_at         timestamptz,
    -- Rows that failed while the file was read (counted in processed at once; not part of the pace).
    ADD COLUMN failed_on_read     integer     NOT NULL DEFAULT 0,
    -- What reading the file found worth telling the vendor (rows beyond row-count, columns no field uses).
    ADD COLUMN notes              text,
    -- Ended (cancelled, campaign over) with rows whose outcomes are still to be written to the output file.
    ADD COLUMN output_due         boolean     NOT NULL DEFAULT false,
    -- A replica reading the file or writing the output holds the task this long; another takes over afterwards.
    ADD COLUMN lease_token        uuid,
    ADD COLUMN lease_until        timestamptz,
    -- The last status event: when, and with how many rows processed (progress events go out when it moved).
    ADD COLUMN reported_at        timestamptz,
    ADD COLUMN reported_processed integer     NOT NULL DEFAULT 0;
UPDATE batch_task SET due_at = created_at + expected_output_duration * interval '1 minute';
ALTER TABLE batch_task ALTER COLUMN due_at SET NOT NULL;
-- Tasks whose output is to be written, or whose rows have all come back.
CREATE INDEX batch_task_closing ON batch_task (updated_at) WHERE output_due OR status = 'IN PROGRESS';

-- Rows are written only by the one ingestion that holds their task's lease (COPY, a million at a time): the foreign
-- key's per-row check and its lock on the task row would only slow that down and block a cancel meanwhile.
ALTER TABLE batch_row DROP CONSTRAINT batch_row_task_id_fkey;
ALTER TABLE batch_row
    -- Order of submission (the submission order is the scheduling decision: priority, fair share, deadline).
    ADD COLUMN submit_seq    bigint,
    ADD COLUMN answered_at   timestamptz,
    ADD COLUMN render_millis bigint;
CREATE SEQUENCE batch_row_submit_seq;
CREATE INDEX batch_row_in_flight ON batch_row (task_id) WHERE status = 'SUBMITTED';
-- The pace of the lane: rows answered in the last minute.
CREATE INDEX batch_row_answered ON batch_row (answered_at) WHERE answered_at IS NOT NULL;
