package io.pmedia.events;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * {@code pmedia.media.status}: a realtime request changed status ({@code PROCESSING} at acceptance, then
 * {@code SUCCESS} or {@code FAILURE}). Fields spelt as the interface document spells a request's (2.3, 2.6).
 * {@code share-id} is the video's share link id, minted when the request ends {@code SUCCESS} (docs/sharing.md); the
 * page's data follows in a {@link SharedVideo} event on the same topic.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"client-id", "service-request-id", "client-request-id", "user-id", "customer-id", "use-case-id",
        "reference-record-id", "status", "message", "video-url", "image-url", "share-id"})
public record MediaStatusChanged(
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("service-request-id") UUID serviceRequestId,
        @JsonProperty("client-request-id") String clientRequestId,
        @JsonProperty("user-id") String userId,
        @JsonProperty("customer-id") String customerId,
        @JsonProperty("use-case-id") String useCaseId,
        @JsonProperty("reference-record-id") String referenceRecordId,
        MediaStatus status,
        String message,
        @JsonProperty("video-url") String videoUrl,
        @JsonProperty("image-url") String imageUrl,
        @JsonProperty("share-id") String shareId) implements EventPayload {

    @Override
    public String topic() {
        return Topics.MEDIA_STATUS;
    }

    @Override
    public String type() {
        return Topics.MEDIA_STATUS_CHANGED;
    }

    @Override
    public String key() {
        return serviceRequestId.toString();
    }
}
