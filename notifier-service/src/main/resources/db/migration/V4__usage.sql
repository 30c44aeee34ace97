-- Usage (issue 22; docs/usage.md): counters per vendor, day and metric, kept as the work happens. The platform's
-- events (media, batch and try-on status, render results) are rolled up idempotently: an event's key is written to
-- usage_event in the same statement that adds its amounts, so a redelivered event adds nothing. Webhook attempts are
-- counted in the statement that records them.
CREATE TABLE usage_counter (
    client_id  UUID             NOT NULL,
    day        DATE             NOT NULL,          -- UTC
    metric     TEXT             NOT NULL,
    amount     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (client_id, day, metric)
);
-- The operator's view of every vendor: by day first.
CREATE INDEX usage_counter_day ON usage_counter (day);

CREATE TABLE usage_event (
    event_key  UUID        PRIMARY KEY,            -- the event (or the resource's end) already counted
    counted_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX usage_event_age ON usage_event (counted_at);
