package io.pmedia.common.client;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A new webhook secret (shown once), and until when the previous one keeps signing beside it. */
public record RotatedWebhookSecret(@JsonProperty("client-id") UUID clientId,
        @JsonProperty("webhook-secret") String webhookSecret,
        @JsonProperty("previous-valid-until") Instant previousValidUntil) {
}
