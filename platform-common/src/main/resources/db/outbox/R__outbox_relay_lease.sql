-- Which replica's relay publishes the outbox right now, and until when (OutboxRelay). The lease is taken and given
-- back in short transactions, so nothing is held open while Kafka acknowledges a batch; a relay that dies
-- mid-batch loses it when held_until passes. Repeatable and idempotent rather than versioned: a shared migration
-- numbered below a service's own would be refused by databases already past it.
CREATE TABLE IF NOT EXISTS outbox_relay_lease (
    name       TEXT PRIMARY KEY,
    holder     UUID,
    held_until TIMESTAMPTZ
);

INSERT INTO outbox_relay_lease (name) VALUES ('relay') ON CONFLICT (name) DO NOTHING;
