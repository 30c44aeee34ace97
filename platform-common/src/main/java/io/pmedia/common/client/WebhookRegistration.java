package io.pmedia.common.client;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the gateway's client registry says about a client's webhook ({@code GET /internal/clients/{id}}).
 *
 * @param webhookUrl null when the client registered none
 * @param webhookSecrets the current secret first, then earlier ones still valid until their {@code expires-at}
 */
public record WebhookRegistration(@JsonProperty("client-id") UUID clientId, String name,
        @JsonProperty("webhook-url") String webhookUrl,
        @JsonProperty("webhook-secrets") List<Secret> webhookSecrets) {

    /** A signing secret in the Standard Webhooks form {@code whsec_<base64>}; {@code expiresAt} null: current. */
    public record Secret(String secret, @JsonProperty("expires-at") Instant expiresAt) {

        public boolean validAt(Instant now) {
            return secret != null && (expiresAt == null || expiresAt.isAfter(now));
        }
    }

    public boolean hasWebhook() {
        return webhookUrl != null && !webhookUrl.isBlank();
    }

    /** The secrets to sign with at {@code now}: every one not expired yet, the current one first. */
    public List<String> signingSecrets(Instant now) {
        return webhookSecrets == null
                ? List.of()
                : webhookSecrets.stream().filter(s -> s != null && s.validAt(now)).map(Secret::secret).toList();
    }
}
