package io.pmedia.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A shareable video came to be, changed or went away ({@code state}): what the share page of {@code share-id} shows
 * (engagement-service keeps a projection of these; docs/sharing.md). Published by the service where the video ends:
 * media-service on {@code pmedia.media.status} for a realtime request (keyed by its service-request-id), batch-service
 * on {@code pmedia.batch.status} for the rendered rows of a task (keyed by the task id; one event carries up to a few
 * hundred rows). Object keys are the platform store's; personalization values appear only as the page shows them
 * (the filled title and call to action), never as fields.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"client-id", "source", "service-request-id", "task-id", "campaign-id", "template-id",
        "template-version", "use-case-id", "videos"})
public record SharedVideo(
        @JsonProperty("client-id") UUID clientId,
        Source source,
        @JsonProperty("service-request-id") UUID serviceRequestId,
        @JsonProperty("task-id") UUID taskId,
        @JsonProperty("campaign-id") String campaignId,
        @JsonProperty("template-id") UUID templateId,
        @JsonProperty("template-version") Integer templateVersion,
        @JsonProperty("use-case-id") String useCaseId,
        List<Video> videos) implements EventPayload {

    /** Where the video was asked for. */
    public enum Source {
        realtime, batch
    }

    /**
     * How a video without a video key comes to have one (docs/sharing.md, "Render on first view"): rendered when its
     * link is first opened, or that render failed (the page offers a retry). Null: rendered as it was asked for.
     */
    public enum Render {
        ON_VIEW("on-view"), FAILED("failed");

        private final String wire;

        Render(String wire) {
            this.wire = wire;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String wire() {
            return wire;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Render ofWire(String value) {
            for (Render render : values()) {
                if (render.wire.equals(value)) {
                    return render;
                }
            }
            throw new IllegalArgumentException("unknown render " + value);
        }
    }

    /** What a share link answers. */
    public enum State {
        /** The page plays the video. */
        ACTIVE,
        /** The owner revoked the link ({@code DELETE /media/{transactionId}/share}). */
        REVOKED,
        /** The video's retention ended; its objects are deleted. */
        EXPIRED
    }

    /**
     * One shareable video. {@code row} is the batch row (null for a realtime request); {@code user-id} the customer it
     * was made for; keys of the store's objects (null when the video has none of that kind). {@code stream-key}: of a
     * video rendered on view, the HLS playlist its render writes while it runs ({@link RenderJob#STREAM_PLAYLIST}
     * under the render's output prefix; absent until the render starts), which its page plays before the video is
     * ready; null for a video rendered as asked.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Video(
            @JsonProperty("share-id") String shareId,
            State state,
            Integer row,
            @JsonProperty("user-id") String userId,
            String title,
            Cta cta,
            Branding branding,
            @JsonProperty("video-key") String videoKey,
            @JsonProperty("poster-key") String posterKey,
            @JsonProperty("captions-key") String captionsKey,
            Integer width,
            Integer height,
            @JsonProperty("duration-seconds") Double durationSeconds,
            @JsonProperty("created-at") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant createdAt,
            @JsonProperty("expires-at") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant expiresAt,
            Render render,
            @JsonProperty("stream-key") String streamKey) {

        /** A video rendered as it was asked for (no render on view pending or failed). */
        public Video(String shareId, State state, Integer row, String userId, String title, Cta cta,
                Branding branding, String videoKey, String posterKey, String captionsKey, Integer width,
                Integer height, Double durationSeconds, Instant createdAt, Instant expiresAt) {
            this(shareId, state, row, userId, title, cta, branding, videoKey, posterKey, captionsKey, width, height,
                    durationSeconds, createdAt, expiresAt, null, null);
        }
    }

    /** A call to action, its placeholders filled. */
    public record Cta(String label, String url) {
    }

    /** The page's look: a logo URL and an accent colour ({@code #rrggbb}); either may be null. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Branding(@JsonProperty("logo-url") String logoUrl, String color) {
    }

    @Override
    public String topic() {
        return source == Source.batch ? Topics.BATCH_STATUS : Topics.MEDIA_STATUS;
    }

    @Override
    public String type() {
        return Topics.VIDEO_SHARED;
    }

    @Override
    @JsonIgnore
    public String key() {
        return source == Source.batch ? taskId.toString() : serviceRequestId.toString();
    }
}
