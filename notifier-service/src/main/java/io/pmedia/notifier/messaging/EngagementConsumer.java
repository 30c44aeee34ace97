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

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.tracing.Traces;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.EventCodec;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.repository.NewDelivery;
import io.pmedia.notifier.service.DeliveryIntake;
import io.smallrye.mutiny.Uni;

/**
 * The engagement events a vendor may subscribe to (docs/webhooks.md, docs/sharing.md), from engagement-service's
 * milestones on {@code pmedia.engagement.status}: {@code video.viewed} (a shared video's first view) and
 * {@code video.completed} (its first completion), once per video, and {@code cta.clicked}, once per page view that
 * clicked; and the end of a render on first view: {@code video.rendered} once per link, {@code video.render-failed}
 * once per render of the link that failed. Only endpoints that subscribe get them; signed, retried and logged like
 * the video push; offsets are committed only after the deliveries are stored.
 */
@ApplicationScoped
public class EngagementConsumer {

    /** The body of an engagement webhook. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"event-type", "share-id", "transaction-id", "task-id", "row", "campaign-id", "user-id",
            "views", "completions", "cta-clicks", "at"})
    public record VideoEngagement(@JsonProperty("event-type") String eventType,
            @JsonProperty("share-id") String shareId, @JsonProperty("transaction-id") UUID transactionId,
            @JsonProperty("task-id") UUID taskId, Integer row, @JsonProperty("campaign-id") String campaignId,
            @JsonProperty("user-id") String userId, long views, long completions,
            @JsonProperty("cta-clicks") long ctaClicks,
            @JsonFormat(shape = JsonFormat.Shape.STRING) Instant at) {
    }

    /**
     * The body of a render event ({@code video.rendered}, {@code video.render-failed}): an engagement event's fields,
     * then the link ({@code share-url}), its stable video URL ({@code video-url}, null for a failure) and what happened
     * ({@code message}, null for a video that came).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record VideoRender(@JsonUnwrapped VideoEngagement engagement, @JsonProperty("share-url") String shareUrl,
            @JsonProperty("video-url") String videoUrl, String message) {
    }

    private static final Logger LOG = Logger.getLogger(EngagementConsumer.class);

    private final ObjectMapper mapper;
    private final EventCodec codec;
    private final Subscriptions subscriptions;
    private final DeliveryIntake intake;

    public EngagementConsumer(ObjectMapper mapper, EventCodec codec, Subscriptions subscriptions,
            DeliveryIntake intake) {
        this.mapper = mapper;
        this.codec = codec;
        this.subscriptions = subscriptions;
        this.intake = intake;
    }

    @Incoming("engagement-status")
    public Uni<Void> onMilestones(ConsumerRecords<String, String> records) {
        List<NewDelivery> found = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                NewDelivery delivery = delivery(codec.read(record.value()), Traces.fromHeaders(record.headers()));
                if (delivery != null) {
                    found.add(delivery);
                }
            } catch (EventCodec.UnreadableEvent e) {
                LOG.errorf("skipping an engagement record that cannot be read: %s", e.getMessage());
            }
        }
        return subscriptions.wanted(found).flatMap(intake::take);
    }

    NewDelivery delivery(CloudEvent event, String traceParent) {
        EngagementMilestone milestone = codec.data(event, EngagementMilestone.class).orElse(null);
        if (milestone == null || milestone.clientId() == null || milestone.shareId() == null) {
            return null;
        }
        DeliveryKind kind = switch (milestone.eventType()) {
            case EngagementMilestone.VIEWED -> DeliveryKind.VIDEO_VIEWED;
            case EngagementMilestone.COMPLETED -> DeliveryKind.VIDEO_COMPLETED;
            case EngagementMilestone.CTA_CLICKED -> DeliveryKind.CTA_CLICKED;
            case EngagementMilestone.RENDERED -> DeliveryKind.VIDEO_RENDERED;
            case EngagementMilestone.RENDER_FAILED -> DeliveryKind.VIDEO_RENDER_FAILED;
            default -> null;
        };
        if (kind == null) {
            return null;
        }
        // A first view, completion or render is one delivery per video; each click is its own (the event's id), and
        // so is each failed render of the link (its claims when it failed).
        String identity = switch (kind) {
            case CTA_CLICKED -> event.id();
            case VIDEO_RENDER_FAILED -> milestone.shareId() + ":" + milestone.attempt();
            default -> milestone.shareId();
        };
        String subject = milestone.serviceRequestId() != null
                ? milestone.serviceRequestId().toString()
                : milestone.shareId();
        VideoEngagement engagement = new VideoEngagement(kind.wire(), milestone.shareId(),
                milestone.serviceRequestId(), milestone.taskId(), milestone.row(), milestone.campaignId(),
                milestone.userId(), milestone.views(), milestone.completions(), milestone.ctaClicks(), milestone.at());
        Object body = kind == DeliveryKind.VIDEO_RENDERED || kind == DeliveryKind.VIDEO_RENDER_FAILED
                ? new VideoRender(engagement, milestone.shareUrl(), milestone.videoUrl(), milestone.message())
                : engagement;
        try {
            return new NewDelivery(WebhookIds.derived(kind.wire() + ":" + identity), WebhookIds.eventId(event.id()),
                    kind, milestone.clientId(), subject, mapper.writeValueAsString(body),
                    event.time() == null ? Instant.now() : event.time(), traceParent);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a webhook body cannot be serialized", e);
        }
    }
}
