package io.pmedia.notifier;

import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes media status events to {@code pmedia.media.status} in the envelope media-service's outbox uses
 * (docs/events.md), as media-service would.
 */
public final class StatusEvents implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One event: its id (the delivery's source) and the envelope as written. */
    public record Event(UUID id, String serviceRequestId, String clientRequestId, String envelope) {
    }

    private final KafkaProducer<String, String> producer;

    public StatusEvents(String bootstrap) {
        producer = producer(bootstrap);
    }

    /** A producer of text records that waits for every replica's acknowledgement. */
    static KafkaProducer<String, String> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    /** A SUCCESS event of a new realtime request of {@code clientId}. */
    public static Event success(UUID clientId) {
        return status(clientId, "SUCCESS");
    }

    public static Event status(UUID clientId, String status) {
        UUID id = UUID.randomUUID();
        String serviceRequestId = UUID.randomUUID().toString();
        String clientRequestId = "order-" + UUID.randomUUID();
        ObjectNode data = JSON.createObjectNode()
                .put("client-id", clientId.toString())
                .put("service-request-id", serviceRequestId)
                .put("client-request-id", clientRequestId)
                .put("user-id", "u-1")
                .put("customer-id", "c-1")
                .put("use-case-id", "greeting")
                .putNull("reference-record-id")
                .put("status", status)
                .put("message", "SUCCESS".equals(status) ? "video ready" : "rendering")
                .put("video-url", "SUCCESS".equals(status)
                        ? "https://cdn.example.com/" + serviceRequestId + ".mp4"
                        : null)
                .put("image-url", "https://cdn.example.com/" + serviceRequestId + ".jpg");
        ObjectNode envelope = JSON.createObjectNode()
                .put("specversion", "1.0")
                .put("id", id.toString())
                .put("source", "/pmedia/media-service")
                .put("type", "io.pmedia.media.status.changed")
                .put("time", Instant.now().toString())
                .put("subject", serviceRequestId)
                .put("datacontenttype", "application/json");
        envelope.set("data", data);
        return new Event(id, serviceRequestId, clientRequestId, envelope.toString());
    }

    /** Publishes and waits for the broker's acknowledgement. */
    public StatusEvents send(Event event) {
        return send(event, event.serviceRequestId());
    }

    /** Publishes with another record key (records of one key keep their order: one partition). */
    public StatusEvents send(Event event, String key) {
        publish(event, key);
        return this;
    }

    /** Publishes and tells where the record landed. */
    public RecordMetadata publish(Event event, String key) {
        ProducerRecord<String, String> record = new ProducerRecord<>("pmedia.media.status", key, event.envelope());
        record.headers().add("content-type", "application/cloudevents+json; charset=UTF-8".getBytes());
        try {
            return producer.send(record).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish a test event", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
