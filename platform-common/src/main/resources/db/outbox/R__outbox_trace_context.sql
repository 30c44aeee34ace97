-- The trace context of the request that wrote an event (a W3C traceparent, NULL when tracing is off): the relay
-- sends it on as the record's traceparent header, so the consumers' spans join the request's trace. Repeatable and
-- idempotent, as R__outbox_relay_lease is; an added nullable column, so old and new replicas run side by side.
ALTER TABLE outbox_event ADD COLUMN IF NOT EXISTS trace_parent TEXT;
