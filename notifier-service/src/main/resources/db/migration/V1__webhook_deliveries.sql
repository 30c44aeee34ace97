-- Webhook deliveries and their attempts. The table is also the durable retry schedule: a PENDING row is due at
-- next_attempt_at, and whichever replica claims it (FOR UPDATE SKIP LOCKED) holds a lease while it is in flight.
CREATE TABLE webhook_delivery (
    webhook_id       TEXT        PRIMARY KEY,          -- Standard Webhooks webhook-id; the delivery id of the API
    event_id         UUID        NOT NULL UNIQUE,      -- the source event: a redelivered record inserts nothing
    kind             TEXT        NOT NULL CHECK (kind IN ('video.push', 'test')),
    client_id        UUID        NOT NULL,
    subject          TEXT,                              -- service-request-id of the realtime request
    payload          TEXT        NOT NULL,             -- the exact body that is signed and sent
    status           TEXT        NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'EXHAUSTED', 'SKIPPED')),
    attempts         INTEGER     NOT NULL DEFAULT 0,
    url              TEXT,                              -- URL of the latest attempt
    last_status      INTEGER,
    last_error       TEXT,
    next_attempt_at  TIMESTAMPTZ,                       -- set while PENDING
    lease_owner      UUID,                              -- the claim that is working on it now
    lease_until      TIMESTAMPTZ,
    event_time       TIMESTAMPTZ,                       -- when the source event happened
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- What the pollers scan: pending rows by due time, nothing else.
CREATE INDEX webhook_delivery_due ON webhook_delivery (next_attempt_at) WHERE status = 'PENDING';
-- The deliveries API: one client's rows, newest first, keyset-paginated.
CREATE INDEX webhook_delivery_client ON webhook_delivery (client_id, created_at DESC, webhook_id DESC);

CREATE TABLE webhook_attempt (
    id             BIGSERIAL   PRIMARY KEY,
    webhook_id     TEXT        NOT NULL REFERENCES webhook_delivery (webhook_id) ON DELETE CASCADE,
    attempt        INTEGER     NOT NULL,
    trigger        TEXT        NOT NULL CHECK (trigger IN ('scheduled', 'replay', 'test')),
    url            TEXT        NOT NULL,
    attempted_at   TIMESTAMPTZ NOT NULL,
    status_code    INTEGER,                             -- null: no response (timeout, connection, refused address)
    latency_ms     INTEGER,
    error          TEXT,
    response_body  TEXT,                                -- the first KiB of the answer
    UNIQUE (webhook_id, attempt)
);

-- Endpoints that answered 410 Gone: nothing more is sent to them until a successful test or replay re-enables them
-- (or the client registers another URL).
CREATE TABLE webhook_endpoint (
    client_id        UUID        NOT NULL,
    url              TEXT        NOT NULL,
    disabled_at      TIMESTAMPTZ NOT NULL,
    disabled_reason  TEXT        NOT NULL,
    PRIMARY KEY (client_id, url)
);
