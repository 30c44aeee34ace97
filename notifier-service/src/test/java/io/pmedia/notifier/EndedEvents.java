package io.pmedia.notifier;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes batch and try-on status events in the envelope their services' outboxes use (docs/events.md), keyed by the
 * resource like theirs, so events of one resource stay in order.
 */
public final class EndedEvents implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final KafkaProducer<String, String> producer;

    public EndedEvents(String bootstrap) {
        producer = StatusEvents.producer(bootstrap);
    }

    /** A batch status event of {@code task}; its event id. */
    public UUID batch(UUID client, UUID task, String status, String filePath, int total, int processed,
            String message) {
        ObjectNode data = JSON.createObjectNode().put("client-id", client.toString()).put("task-id", task.toString())
                .put("campaign-id", "spring").put("template-id", UUID.randomUUID().toString()).put("status", status)
                .put("file-path", filePath).put("total-count", total).put("processed", processed)
                .put("message", message).put("due-at", Instant.now().plusSeconds(600).toString())
                .putNull("projected-finish");
        return send("pmedia.batch.status", "io.pmedia.batch.status.changed", task.toString(), data);
    }

    /** A try-on status event of {@code request}; its event id. */
    public UUID tryOn(UUID client, UUID request, String status, String output, String message) {
        ObjectNode data = JSON.createObjectNode().put("client-id", client.toString())
                .put("request-id", request.toString()).put("user-id", "u-1").put("usecase-id", "fitting-room")
                .put("status", status).put("generated-output", output).put("message", message);
        return send("pmedia.vton.status", "io.pmedia.vton.status.changed", request.toString(), data);
    }

    /** An engagement milestone of a shared video, as engagement-service's outbox writes it; its event id. */
    public UUID milestone(UUID client, String type, String shareId, UUID request, long views, long completions,
            long clicks) {
        ObjectNode data = JSON.createObjectNode().put("event-type", type).put("client-id", client.toString())
                .put("share-id", shareId).put("service-request-id", request.toString()).putNull("task-id")
                .putNull("row").putNull("campaign-id").put("template-id", UUID.randomUUID().toString())
                .put("user-id", "u-1").put("views", views).put("completions", completions).put("cta-clicks", clicks)
                .put("at", Instant.now().toString());
        return send("pmedia.engagement.status", "io.pmedia.engagement.milestone", shareId, data);
    }

    /**
     * The end of a batch row's render on first view, as engagement-service's outbox writes it: {@code video.rendered}
     * (with the link's video URL) or {@code video.render-failed} (with a message) of the link's {@code attempt}-th
     * claim; its event id.
     */
    public UUID renderEnded(UUID client, String type, String shareId, UUID task, int row, int attempt) {
        boolean rendered = "video.rendered".equals(type);
        String shareUrl = "https://pmedia.example/v/" + shareId;
        ObjectNode data = JSON.createObjectNode().put("event-type", type).put("client-id", client.toString())
                .put("share-id", shareId).putNull("service-request-id").put("task-id", task.toString())
                .put("row", row).put("campaign-id", "spring").put("template-id", UUID.randomUUID().toString())
                .put("user-id", "u-" + row).put("views", 0).put("completions", 0).put("cta-clicks", 0)
                .put("at", Instant.now().toString()).put("share-url", shareUrl)
                .put("video-url", rendered ? shareUrl + "/video.mp4" : null).put("attempt", attempt)
                .put("message", rendered ? null : "the render on first view of row " + row + " failed");
        return send("pmedia.engagement.status", "io.pmedia.engagement.milestone", shareId, data);
    }

    /** A render result as a worker publishes it on {@code topic} (a job's reply-to); its event id. */
    public UUID render(String topic, UUID client, boolean success, double seconds, long renderMillis, long bytes) {
        String job = UUID.randomUUID().toString();
        ObjectNode data = JSON.createObjectNode().put("job-id", job).put("producer", "media")
                .put("status", success ? "SUCCESS" : "FAILURE").put("message", success ? "video ready" : "broken")
                .put("render-millis", renderMillis).put("client-id", client.toString());
        if (success) {
            data.put("video-key", "media/" + client + "/" + job + "/video.mp4")
                    .put("thumbnail-key", "media/" + client + "/" + job + "/thumbnail.jpg")
                    .put("duration-seconds", seconds).put("width", 1280).put("height", 720).put("stored-bytes", bytes);
        }
        return send(topic, "io.pmedia.render.job.completed", job, data);
    }

    /** Publishes {@code envelope} once more, exactly as before (a redelivery). */
    public void again(String topic, String key, String envelope) {
        try {
            producer.send(new ProducerRecord<>(topic, key, envelope)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish a test event", e);
        }
    }

    /** The last envelope sent. */
    public String last() {
        return last;
    }

    private String last;

    private UUID send(String topic, String type, String key, ObjectNode data) {
        UUID id = UUID.randomUUID();
        ObjectNode envelope = JSON.createObjectNode().put("specversion", "1.0").put("id", id.toString())
                .put("source", "/pmedia/test").put("type", type).put("time", Instant.now().toString())
                .put("subject", key).put("datacontenttype", "application/json");
        envelope.set("data", data);
        last = envelope.toString();
        try {
            producer.send(new ProducerRecord<>(topic, key, envelope.toString())).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish a test event", e);
        }
        return id;
    }

    @Override
    public void close() {
        producer.close();
    }
}
