package io.pmedia.events;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** {@code pmedia.vton.status}: a try-on request changed status; {@code generated-output} once it is SUCCESS. */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"client-id", "request-id", "user-id", "usecase-id", "status", "generated-output", "message"})
public record TryOnStatusChanged(
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("request-id") UUID requestId,
        @JsonProperty("user-id") String userId,
        @JsonProperty("usecase-id") String usecaseId,
        TryOnStatus status,
        @JsonProperty("generated-output") String generatedOutput,
        String message) implements EventPayload {

    @Override
    public String topic() {
        return Topics.VTON_STATUS;
    }

    @Override
    public String type() {
        return Topics.VTON_STATUS_CHANGED;
    }

    @Override
    public String key() {
        return requestId.toString();
    }
}
