package io.pmedia.common.outbox;

/**
 * An outbox row on its way to Kafka: the CloudEvent JSON, its topic and record key, its place in line, and the trace
 * context it was written in ({@code traceParent}, null when none).
 */
public record OutboxMessage(long id, String topic, String key, String payload, String traceParent) {
}
