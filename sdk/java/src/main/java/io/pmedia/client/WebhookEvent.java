package io.pmedia.client;

import java.time.Instant;
import java.util.Arrays;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.client.model.TaskStatus;
import io.pmedia.client.model.TryOnStatus;
import io.pmedia.client.model.VideoPush;

/**
 * A verified webhook ({@link Webhooks#verifyEvent}): its {@link #getType() type}, for every event type of
 * docs/webhooks.md and docs/asyncapi.yaml, the {@code webhook-id} and timestamp, and its body typed by the type:
 * {@link #videoPush()} for {@code video.push} and {@code test}, {@link #taskStatus()} for {@code batch.task.ended},
 * {@link #tryOnStatus()} for {@code tryon.request.ended}, {@link #engagement()} for {@code video.viewed},
 * {@code video.completed} and {@code cta.clicked}, {@link #render()} for {@code video.rendered} and
 * {@code video.render-failed}. Asking for another type's body is an {@link IllegalStateException}.
 */
public final class WebhookEvent {

    /** Every event type a webhook endpoint may receive, as the wire spells it. */
    public enum Type {
        VIDEO_PUSH("video.push"), TEST("test"), BATCH_TASK_ENDED("batch.task.ended"), TRYON_REQUEST_ENDED(
                "tryon.request.ended"), VIDEO_VIEWED("video.viewed"), VIDEO_COMPLETED(
                        "video.completed"), CTA_CLICKED("cta.clicked"), VIDEO_RENDERED(
                                "video.rendered"), VIDEO_RENDER_FAILED("video.render-failed");

        private final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        /** The type of a wire name, or null for one pmedia does not send. */
        static Type of(String wire) {
            return Arrays.stream(values()).filter(type -> type.wire.equals(wire)).findFirst().orElse(null);
        }
    }

    /** What viewers did on a share page (docs/webhooks.md, "Engagement events"): the video's counters then. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class EngagementEvent {
        @JsonProperty("event-type")
        public String eventType;
        @JsonProperty("share-id")
        public String shareId;
        /** The realtime request's service-request-id; null for a batch row (which has taskId, row, campaignId). */
        @JsonProperty("transaction-id")
        public String transactionId;
        @JsonProperty("task-id")
        public String taskId;
        @JsonProperty("row")
        public Integer row;
        @JsonProperty("campaign-id")
        public String campaignId;
        @JsonProperty("user-id")
        public String userId;
        @JsonProperty("views")
        public long views;
        @JsonProperty("completions")
        public long completions;
        @JsonProperty("cta-clicks")
        public long ctaClicks;
        @JsonProperty("at")
        public Instant at;
    }

    /**
     * The end of a render on first view (docs/webhooks.md, "Renders on first view"): an engagement event's fields,
     * then the link, its stable video URL ({@code video.rendered} only: a redirect to the file) and what happened
     * ({@code video.render-failed} only).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class RenderEvent extends EngagementEvent {
        @JsonProperty("share-url")
        public String shareUrl;
        @JsonProperty("video-url")
        public String videoUrl;
        @JsonProperty("message")
        public String message;
    }

    private final Type type;
    private final String webhookId;
    private final Instant timestamp;
    private final Object data;

    WebhookEvent(Type type, String webhookId, Instant timestamp, Object data) {
        this.type = type;
        this.webhookId = webhookId;
        this.timestamp = timestamp;
        this.data = data;
    }

    public Type getType() {
        return type;
    }

    /** The same on every retry and replay of one delivery: drop duplicates by it. */
    public String getWebhookId() {
        return webhookId;
    }

    /** The {@code webhook-timestamp} of this attempt. */
    public Instant getTimestamp() {
        return timestamp;
    }

    /** The body of a {@code video.push} or a {@code test} (interface 2.7). */
    public VideoPush videoPush() {
        return body(VideoPush.class, Type.VIDEO_PUSH, Type.TEST);
    }

    /** The body of a {@code batch.task.ended} (the 2.8 task status). */
    public TaskStatus taskStatus() {
        return body(TaskStatus.class, Type.BATCH_TASK_ENDED);
    }

    /** The body of a {@code tryon.request.ended} (the 2.9 status). */
    public TryOnStatus tryOnStatus() {
        return body(TryOnStatus.class, Type.TRYON_REQUEST_ENDED);
    }

    /** The body of a {@code video.viewed}, {@code video.completed} or {@code cta.clicked}. */
    public EngagementEvent engagement() {
        return body(EngagementEvent.class, Type.VIDEO_VIEWED, Type.VIDEO_COMPLETED, Type.CTA_CLICKED);
    }

    /** The body of a {@code video.rendered} or {@code video.render-failed}. */
    public RenderEvent render() {
        return body(RenderEvent.class, Type.VIDEO_RENDERED, Type.VIDEO_RENDER_FAILED);
    }

    private <T> T body(Class<T> kind, Type... types) {
        if (!Arrays.asList(types).contains(type)) {
            throw new IllegalStateException("a " + type.wire() + " event has no " + kind.getSimpleName());
        }
        return kind.cast(data);
    }
}
