package io.pmedia.notifier;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The video push notification of interface section 2.7: exactly these three fields, in this order. */
@JsonPropertyOrder({"client-request-id", "user-id", "video-url"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record VideoPush(@JsonProperty("client-request-id") String clientRequestId,
        @JsonProperty("user-id") String userId,
        @JsonProperty("video-url") String videoUrl) {
}
