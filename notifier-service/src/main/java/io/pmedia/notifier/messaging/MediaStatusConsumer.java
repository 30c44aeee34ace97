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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.tracing.Traces;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.MediaStatusChanged;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.VideoPush;
import io.pmedia.notifier.repository.NewDelivery;
import io.pmedia.notifier.service.DeliveryIntake;
import io.smallrye.mutiny.Uni;

/**
 * Turns {@code pmedia.media.status} events that reach {@code SUCCESS} into video push deliveries. A poll's records are
 * inserted in one statement ({@link DeliveryIntake}); the unique event id makes a redelivered record insert nothing, so
 * it is never pushed twice. The batch is acknowledged only when that insert has committed, and the throttled commit
 * strategy commits an offset only after every record before it was acknowledged: Kafka never forgets an event
 * PostgreSQL does not hold. While PostgreSQL is unreachable the batch is retried, and consumption waits.
 */
@ApplicationScoped
public class MediaStatusConsumer {

    private static final Logger LOG = Logger.getLogger(MediaStatusConsumer.class);
    private final ObjectMapper mapper;
    private final EventCodec codec;
    private final DeliveryIntake intake;

    public MediaStatusConsumer(ObjectMapper mapper, EventCodec codec, DeliveryIntake intake) {
        this.mapper = mapper;
        this.codec = codec;
        this.intake = intake;
    }

    @Incoming("media-status")
    public Uni<Void> onStatuses(ConsumerRecords<String, String> records) {
        List<NewDelivery> pushes = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            NewDelivery push = pushOf(record.value(), Traces.fromHeaders(record.headers()));
            if (push != null) {
                pushes.add(push);
            }
        }
        LOG.debugf("%d media status records, %d pushes", records.count(), pushes.size());
        return intake.take(pushes);
    }

    /**
     * The delivery a status event asks for, or null when it asks for none (or cannot be read); {@code traceParent} is
     * the record's trace context, kept with the delivery for the spans of its attempts.
     */
    NewDelivery pushOf(String envelope, String traceParent) {
        CloudEvent event;
        MediaStatusChanged status;
        try {
            event = codec.read(envelope);
            status = codec.data(event, MediaStatusChanged.class).orElse(null);
        } catch (EventCodec.UnreadableEvent e) {
            LOG.errorf("skipping a media status record that cannot be read: %s", e.getMessage());
            return null;
        }
        if (status == null || status.status() != MediaStatus.SUCCESS) {
            return null;
        }
        if (status.clientId() == null || status.videoUrl() == null || status.videoUrl().isBlank()) {
            LOG.errorf("skipping media status event %s: a SUCCESS needs a client-id and a video-url", event.id());
            return null;
        }
        UUID eventId = WebhookIds.eventId(event.id());
        VideoPush push = new VideoPush(status.clientRequestId(), status.userId(), status.videoUrl());
        try {
            return new NewDelivery(webhookId(eventId), eventId, DeliveryKind.VIDEO_PUSH, status.clientId(),
                    status.serviceRequestId() == null ? event.subject() : status.serviceRequestId().toString(),
                    mapper.writeValueAsString(push), event.time() == null ? Instant.now() : event.time(),
                    traceParent);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a video push cannot be serialized", e);
        }
    }

    /**
     * The Standard Webhooks {@code webhook-id} of the push for a source event: derived, not random, so every record of
     * the same event names the same delivery, and the unique constraint sees the duplicate.
     */
    public static String webhookId(UUID eventId) {
        return WebhookIds.derived("pmedia.video.push:" + eventId);
    }
}
