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
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"share-id", "client-id", "service-request-id", "task-id", "campaign-id", "template-id", "kind",
        "session", "visitor", "percent", "seconds-watched", "bot", "at"})
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
        @JsonFormat(shape = JsonFormat.Shape.STRING) Instant at) implements EventPayload {

    /** The closed set of what a page reports. */
    public enum Kind {
        view, play, progress, complete, cta_click;

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
