package io.pmedia.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * {@code pmedia.engagement.status}: a video reached a milestone a vendor can subscribe to as a webhook (the
 * notifier delivers it): {@code video.viewed} on its first view, {@code video.completed} on its first completion,
 * {@code cta.clicked} on each session's click of its call to action. Keyed by the share id.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"event-type", "client-id", "share-id", "service-request-id", "task-id", "row", "campaign-id",
        "template-id", "user-id", "views", "completions", "cta-clicks", "at"})
public record EngagementMilestone(
        @JsonProperty("event-type") String eventType,
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("share-id") String shareId,
        @JsonProperty("service-request-id") UUID serviceRequestId,
        @JsonProperty("task-id") UUID taskId,
        Integer row,
        @JsonProperty("campaign-id") String campaignId,
        @JsonProperty("template-id") UUID templateId,
        @JsonProperty("user-id") String userId,
        long views,
        long completions,
        @JsonProperty("cta-clicks") long ctaClicks,
        @JsonFormat(shape = JsonFormat.Shape.STRING) Instant at) implements EventPayload {

    public static final String VIEWED = "video.viewed";
    public static final String COMPLETED = "video.completed";
    public static final String CTA_CLICKED = "cta.clicked";

    @Override
    public String topic() {
        return Topics.ENGAGEMENT_STATUS;
    }

    @Override
    public String type() {
        return Topics.ENGAGEMENT_MILESTONE;
    }

    @Override
    public String key() {
        return shareId;
    }
}
