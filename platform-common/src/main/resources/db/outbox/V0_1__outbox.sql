-- Transactional outbox shared by every service (platform-common). A state change and its event are written in
-- one transaction; OutboxRelay publishes rows to Kafka in id order and deletes them once the broker has them.
CREATE TABLE outbox_event (
    id          BIGSERIAL PRIMARY KEY,
    event_id    UUID        NOT NULL UNIQUE,
    topic       TEXT        NOT NULL,
    record_key  TEXT        NOT NULL,
    payload     TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Wakes the relay of every replica at commit time, so an event normally leaves within milliseconds;
-- the relay's periodic poll covers a missed notification.
CREATE FUNCTION outbox_event_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('pmedia_outbox', '');
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER outbox_event_notify AFTER INSERT ON outbox_event
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_event_notify();
