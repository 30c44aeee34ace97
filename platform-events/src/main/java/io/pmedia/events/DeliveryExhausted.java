package io.pmedia.events;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code pmedia.webhook.dead-letter}: a webhook delivery failed its last attempt. {@code payload} is the body that
 * was to be pushed, so an operator can replay it.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"client-id", "webhook-id", "event-id", "url", "attempts", "last-status", "last-error", "payload"})
public record DeliveryExhausted(
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("webhook-id") String webhookId,
        @JsonProperty("event-id") UUID eventId,
        String url,
        int attempts,
        @JsonProperty("last-status") Integer lastStatus,
        @JsonProperty("last-error") String lastError,
        JsonNode payload) implements EventPayload {

    @Override
    public String topic() {
        return Topics.WEBHOOK_DEAD_LETTER;
    }

    @Override
    public String type() {
        return Topics.WEBHOOK_EXHAUSTED;
    }

    @Override
    public String key() {
        return webhookId;
    }
}
