-- A batch task: the rows of an input file rendered with one pinned template version (docs/batch.md).
CREATE TABLE batch_task (
    id                       uuid PRIMARY KEY,
    client_id                uuid        NOT NULL,
    campaign_id              text        NOT NULL,
    template_id              uuid        NOT NULL,
    template_version         integer     NOT NULL,
    template                 text        NOT NULL,
    file_name                text,
    file_path                text        NOT NULL,
    priority                 integer     NOT NULL,
    row_count                integer     NOT NULL,
    expected_output_duration integer     NOT NULL,
    status                   text        NOT NULL,
    total_count              integer     NOT NULL DEFAULT 0,
    processed                integer     NOT NULL DEFAULT 0,
    succeeded                integer     NOT NULL DEFAULT 0,
    message                  text        NOT NULL,
    output_path              text,
    created_at               timestamptz NOT NULL,
    updated_at               timestamptz NOT NULL
);
CREATE INDEX batch_task_runnable ON batch_task (priority DESC, created_at) WHERE status IN ('PENDING', 'IN PROGRESS');
CREATE INDEX batch_task_campaign ON batch_task (client_id, campaign_id) WHERE status IN ('PENDING', 'IN PROGRESS');

-- One row of a task's input file. status: PENDING (not yet submitted), SUBMITTED, SUCCESS, FAILURE, CANCELLED.
CREATE TABLE batch_row (
    task_id      uuid        NOT NULL REFERENCES batch_task (id) ON DELETE CASCADE,
    row_no       integer     NOT NULL,
    user_id      text        NOT NULL,
    input        text        NOT NULL,
    status       text        NOT NULL,
    attempts     integer     NOT NULL DEFAULT 0,
    video_key    text,
    thumbnail_key text,
    message      text,
    submitted_at timestamptz,
    PRIMARY KEY (task_id, row_no)
);
CREATE INDEX batch_row_pending ON batch_row (task_id, row_no) WHERE status = 'PENDING';
CREATE INDEX batch_row_submitted ON batch_row (submitted_at) WHERE status = 'SUBMITTED';

-- The latest status of every campaign, fed by pmedia.campaign.status (docs/campaigns.md).
CREATE TABLE campaign_window (
    client_id   uuid        NOT NULL,
    campaign_id text        NOT NULL,
    status      text        NOT NULL,
    event_time  timestamptz NOT NULL,
    PRIMARY KEY (client_id, campaign_id)
);
