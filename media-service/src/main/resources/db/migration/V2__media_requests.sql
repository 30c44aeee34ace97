-- Realtime media requests. (client_id, client_request_id) is the idempotency key: the same body gets the same
-- acceptance and service-request-id (request_hash compares bodies). accept_* replay the original acceptance.
CREATE TABLE media_request (
    id                  UUID PRIMARY KEY,
    client_id           UUID        NOT NULL,
    client_request_id   TEXT        NOT NULL,
    request_hash        TEXT        NOT NULL,
    form                TEXT        NOT NULL,
    customer_id         TEXT,
    user_id             TEXT,
    use_case_id         TEXT        NOT NULL,
    reference_record_id TEXT,
    template_id         UUID,
    template_version    INT,
    render_input        TEXT,
    status              TEXT        NOT NULL CHECK (status IN ('PROCESSING', 'SUCCESS', 'FAILURE')),
    message             TEXT,
    accept_status       TEXT        NOT NULL,
    accept_message      TEXT        NOT NULL,
    video_key           TEXT,
    thumbnail_key       TEXT,
    duration_seconds    DOUBLE PRECISION,
    render_millis       BIGINT,
    attempts            INT         NOT NULL DEFAULT 0,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    completed_at        TIMESTAMPTZ,
    CONSTRAINT media_request_idempotency UNIQUE (client_id, client_request_id)
);

CREATE INDEX media_request_processing ON media_request (updated_at) WHERE status = 'PROCESSING';
