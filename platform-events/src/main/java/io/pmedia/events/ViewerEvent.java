package io.pmedia.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * {@code pmedia.engagement.events}: what a viewer did on a share page, as its beacon reported it (docs/sharing.md,
 * docs/privacy.md). Keyed by the share id. The envelope's {@code id} is the event's identity: the rollup counts each
 * id once. {@code visitor} is a salted hash of the viewer's address (and the vendor) that changes every day (never the
 * address); {@code session} a random id of one page view; {@code bot} marks agents counted apart from views.
 * {@code first-frame-ms} and {@code first-frame-source}: a {@code first-frame} event's time from the page's navigation
 * start to its first video frame, and what that frame came from (null for every other kind).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"share-id", "client-id", "service-request-id", "task-id", "campaign-id", "template-id", "kind",
        "session", "visitor", "percent", "seconds-watched", "first-frame-ms", "first-frame-source", "bot", "at"})
public record ViewerEvent(
        @JsonProperty("share-id") String shareId,
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("service-request-id") UUID serviceRequestId,
        @JsonProperty("task-id") UUID taskId,
        @JsonProperty("campaign-id") String campaignId,
        @JsonProperty("template-id") UUID templateId,
        Kind kind,
        String session,
        String visitor,
        Integer percent,
        @JsonProperty("seconds-watched") Double secondsWatched,
        boolean bot,
        @JsonFormat(shape = JsonFormat.Shape.STRING) Instant at,
        @JsonProperty("first-frame-ms") Integer firstFrameMs,
        @JsonProperty("first-frame-source") FrameSource firstFrameSource) implements EventPayload {

    /** An event of any kind but {@code first-frame}. */
    public ViewerEvent(String shareId, UUID clientId, UUID serviceRequestId, UUID taskId, String campaignId,
            UUID templateId, Kind kind, String session, String visitor, Integer percent, Double secondsWatched,
            boolean bot, Instant at) {
        this(shareId, clientId, serviceRequestId, taskId, campaignId, templateId, kind, session, visitor, percent,
                secondsWatched, bot, at, null, null);
    }

    /** The closed set of what a page reports. */
    public enum Kind {
        view, play, progress, complete, cta_click, first_frame;

        /** The beacon's spelling ({@code cta-click}), also on the wire. */
        @com.fasterxml.jackson.annotation.JsonValue
        public String wire() {
            return name().replace('_', '-');
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Kind ofWire(String wire) {
            for (Kind kind : values()) {
                if (kind.wire().equals(wire)) {
                    return kind;
                }
            }
            return null;
        }
    }

    /**
     * Where a page view's first frame came from: the HLS stream of a link still rendering (its cached opening, played
     * on view), or the rendered MP4.
     */
    public enum FrameSource {
        stream, video;

        /** The source spelled {@code wire}; null for any other text. */
        @com.fasterxml.jackson.annotation.JsonCreator
        public static FrameSource ofWire(String wire) {
            return java.util.Arrays.stream(values()).filter(source -> source.name().equals(wire)).findFirst()
                    .orElse(null);
        }
    }

    @Override
    public String topic() {
        return Topics.ENGAGEMENT_EVENTS;
    }

    @Override
    public String type() {
        return Topics.VIEWER_EVENT;
    }

    @Override
    public String key() {
        return shareId;
    }
}
