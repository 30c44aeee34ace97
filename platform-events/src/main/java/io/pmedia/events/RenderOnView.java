package io.pmedia.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A share link whose video is rendered on first view was opened without a video (docs/sharing.md, "Render on first
 * view"): the service that owns it renders it now, once. engagement-service publishes one per claim of the link in
 * its database (the first open, or a retry after a failed render), on {@code pmedia.engagement.renders}, keyed by the
 * share id; batch-service takes those of {@code source} {@code batch} (its {@code task-id} and {@code row}),
 * media-service those of {@code realtime} (its {@code service-request-id}). Delivered at least once: the owner claims
 * the video in its own database before it renders.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"client-id", "share-id", "source", "service-request-id", "task-id", "row", "attempt",
        "requested-at"})
public record RenderOnView(
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("share-id") String shareId,
        SharedVideo.Source source,
        @JsonProperty("service-request-id") UUID serviceRequestId,
        @JsonProperty("task-id") UUID taskId,
        Integer row,
        /** 1 for the first open; more for a viewer's retry after a failed render. */
        int attempt,
        @JsonProperty("requested-at") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant requestedAt)
        implements
            EventPayload {

    @Override
    public String topic() {
        return Topics.ENGAGEMENT_RENDERS;
    }

    @Override
    public String type() {
        return Topics.RENDER_ON_VIEW;
    }

    @Override
    @JsonIgnore
    public String key() {
        return shareId;
    }
}
