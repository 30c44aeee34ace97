package io.pmedia.common.client;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.common.wire.WireName;

/**
 * What the gateway's client registry says about a client's webhook ({@code GET /internal/clients/{id}}).
 *
 * @param webhookUrl null when the client registered none
 * @param webhookSecrets the current secret first, then earlier ones still valid until their {@code expires-at}
 * @param eventTypes the events the endpoint subscribes to (wire names); null from a registry that predates them,
 *        which means the default subscription
 */
public record WebhookRegistration(@JsonProperty("client-id") UUID clientId, String name,
        @JsonProperty("webhook-url") String webhookUrl,
        @JsonProperty("webhook-secrets") List<Secret> webhookSecrets,
        @JsonProperty("event-types") List<String> eventTypes) {

    /** A signing secret in the Standard Webhooks form {@code whsec_<base64>}; {@code expiresAt} null: current. */
    public record Secret(String secret, @JsonProperty("expires-at") Instant expiresAt) {

        public boolean validAt(Instant now) {
            return secret != null && (expiresAt == null || expiresAt.isAfter(now));
        }
    }

    public boolean hasWebhook() {
        return webhookUrl != null && !webhookUrl.isBlank();
    }

    /** The events the endpoint subscribes to; unknown spellings (a newer registry's) are left out. */
    public List<WebhookEventType> subscriptions() {
        if (eventTypes == null) {
            return WebhookEventType.DEFAULT;
        }
        return eventTypes.stream().map(type -> WireName.find(WebhookEventType.class, type))
                .filter(Objects::nonNull).distinct().toList();
    }

    public boolean subscribes(WebhookEventType type) {
        return subscriptions().contains(type);
    }

    /** The secrets to sign with at {@code now}: every one not expired yet, the current one first. */
    public List<String> signingSecrets(Instant now) {
        return webhookSecrets == null
                ? List.of()
                : webhookSecrets.stream().filter(s -> s != null && s.validAt(now)).map(Secret::secret).toList();
    }
}
