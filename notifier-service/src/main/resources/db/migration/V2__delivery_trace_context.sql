-- The trace context of the media status event a push was made for (a W3C traceparent; NULL when tracing is off or
-- for test pushes): every attempt is a span of that trace, however much later a retry runs. Nullable and added: old
-- and new replicas run side by side during a rollout.
ALTER TABLE webhook_delivery ADD COLUMN trace_parent TEXT;
