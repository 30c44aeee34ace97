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
 * {@code cta.clicked} on each session's click of its call to action; and for a link rendered on first view
 * (docs/sharing.md), {@code video.rendered} when its page event brings the video it had not, and
 * {@code video.render-failed} when it marks that render failed. Keyed by the share id.
 *
 * <p>{@code share-url}, {@code video-url}, {@code attempt} and {@code message} are the render events' (null for the
 * others): the link, the link's stable video URL (rendered only), the link's render claims when the render ended
 * (which of its renders this was), and what a vendor is told about it.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"event-type", "client-id", "share-id", "service-request-id", "task-id", "row", "campaign-id",
        "template-id", "user-id", "views", "completions", "cta-clicks", "at", "share-url", "video-url", "attempt",
        "message"})
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
        @JsonFormat(shape = JsonFormat.Shape.STRING) Instant at,
        @JsonProperty("share-url") String shareUrl,
        @JsonProperty("video-url") String videoUrl,
        Integer attempt,
        String message) implements EventPayload {

    public static final String VIEWED = "video.viewed";
    public static final String COMPLETED = "video.completed";
    public static final String CTA_CLICKED = "cta.clicked";
    public static final String RENDERED = "video.rendered";
    public static final String RENDER_FAILED = "video.render-failed";

    /** A milestone of the viewers' counters ({@link #VIEWED}, {@link #COMPLETED}, {@link #CTA_CLICKED}). */
    public EngagementMilestone(String eventType, UUID clientId, String shareId, UUID serviceRequestId, UUID taskId,
            Integer row, String campaignId, UUID templateId, String userId, long views, long completions,
            long ctaClicks, Instant at) {
        this(eventType, clientId, shareId, serviceRequestId, taskId, row, campaignId, templateId, userId, views,
                completions, ctaClicks, at, null, null, null, null);
    }

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
