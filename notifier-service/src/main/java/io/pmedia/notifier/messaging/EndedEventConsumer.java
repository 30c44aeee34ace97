package io.pmedia.notifier.messaging;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.tracing.Traces;
import io.pmedia.events.BatchStatusChanged;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.TryOnStatusChanged;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.repository.NewDelivery;
import io.pmedia.notifier.service.DeliveryIntake;
import io.smallrye.mutiny.Uni;

/**
 * The events beyond the video push that a vendor may subscribe to (docs/webhooks.md): a batch task that ended
 * ({@code batch.task.ended}, body the 2.8 task status) and a try-on request that ended ({@code tryon.request.ended},
 * body the 2.9 status). Only the clients whose endpoint subscribes get a delivery (the registry is asked, through its
 * short cache; while it cannot answer, the batch waits like it waits for PostgreSQL). One delivery per resource: its
 * webhook-id is derived from the resource, so a second ending event of it (a batch's output written after a cancel)
 * inserts nothing. Offsets are committed as for the video push: only after the deliveries are stored.
 */
@ApplicationScoped
public class EndedEventConsumer {

    /** Interface 2.8, task status, exactly. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"task-id", "status", "file-path", "total-count", "processed", "message"})
    public record BatchTaskEnded(@JsonProperty("task-id") UUID taskId, String status,
            @JsonProperty("file-path") String filePath, @JsonProperty("total-count") int totalCount, int processed,
            String message) {
    }

    /** Interface 2.9, status response (with the {@code message} GET /vton/status adds). */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"request-id", "status", "generated-output", "message"})
    public record TryOnRequestEnded(@JsonProperty("request-id") UUID requestId, String status,
            @JsonProperty("generated-output") String generatedOutput, String message) {
    }

    private static final Logger LOG = Logger.getLogger(EndedEventConsumer.class);

    private final ObjectMapper mapper;
    private final EventCodec codec;
    private final Subscriptions subscriptions;
    private final DeliveryIntake intake;

    public EndedEventConsumer(ObjectMapper mapper, EventCodec codec, Subscriptions subscriptions,
            DeliveryIntake intake) {
        this.mapper = mapper;
        this.codec = codec;
        this.subscriptions = subscriptions;
        this.intake = intake;
    }

    @Incoming("batch-status")
    public Uni<Void> onBatchStatuses(ConsumerRecords<String, String> records) {
        return subscriptions.wanted(deliveries(records, this::batchEnded)).flatMap(intake::take);
    }

    @Incoming("vton-status")
    public Uni<Void> onTryOnStatuses(ConsumerRecords<String, String> records) {
        return subscriptions.wanted(deliveries(records, this::tryOnEnded)).flatMap(intake::take);
    }

    private interface Reader {
        NewDelivery read(CloudEvent event, String traceParent);
    }

    private List<NewDelivery> deliveries(ConsumerRecords<String, String> records, Reader reader) {
        List<NewDelivery> found = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                NewDelivery delivery = reader.read(codec.read(record.value()), Traces.fromHeaders(record.headers()));
                if (delivery != null) {
                    found.add(delivery);
                }
            } catch (EventCodec.UnreadableEvent e) {
                LOG.errorf("skipping a status record that cannot be read: %s", e.getMessage());
            }
        }
        return found;
    }

    /** A batch task's end ({@link #ended}); its delivery waits for the event that names the output file. */
    NewDelivery batchEnded(CloudEvent event, String traceParent) {
        BatchStatusChanged status = codec.data(event, BatchStatusChanged.class).orElse(null);
        if (!ended(status)) {
            return null;
        }
        return delivery(event, DeliveryKind.BATCH_TASK_ENDED, status.clientId(), status.taskId(),
                new BatchTaskEnded(status.taskId(), status.status().wire(), status.filePath(), status.totalCount(),
                        status.processed(), status.message()),
                traceParent);
    }

    /**
     * Whether a batch status event tells the task's end: a final status with its output file, or a final status of a
     * task that rendered no row (never had rows, or was cancelled before its first: no file of rendered rows is
     * waited for). A task cancelled with rows rendered first ends without its file; the event that names the file is
     * its end.
     */
    static boolean ended(BatchStatusChanged status) {
        return status != null && status.clientId() != null && status.taskId() != null && status.status() != null
                && status.status().isFinal()
                && (status.filePath() != null || status.totalCount() == 0 || status.processed() == 0);
    }

    NewDelivery tryOnEnded(CloudEvent event, String traceParent) {
        TryOnStatusChanged status = codec.data(event, TryOnStatusChanged.class).orElse(null);
        if (status == null || status.clientId() == null || status.requestId() == null || status.status() == null
                || !status.status().isFinal()) {
            return null;
        }
        return delivery(event, DeliveryKind.TRYON_REQUEST_ENDED, status.clientId(), status.requestId(),
                new TryOnRequestEnded(status.requestId(), status.status().name(), status.generatedOutput(),
                        status.message()),
                traceParent);
    }

    private NewDelivery delivery(CloudEvent event, DeliveryKind kind, UUID clientId, UUID subject, Object body,
            String traceParent) {
        try {
            return new NewDelivery(WebhookIds.derived(kind.wire() + ":" + subject), WebhookIds.eventId(event.id()),
                    kind, clientId, subject.toString(), mapper.writeValueAsString(body),
                    event.time() == null ? Instant.now() : event.time(), traceParent);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a webhook body cannot be serialized", e);
        }
    }
}
