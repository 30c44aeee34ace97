package io.pmedia.common.outbox;

/** An outbox row on its way to Kafka: the CloudEvent JSON, its topic and record key, and its place in line. */
public record OutboxMessage(long id, String topic, String key, String payload) {
}
