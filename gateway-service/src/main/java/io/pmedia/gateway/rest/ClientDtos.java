package io.pmedia.gateway.rest;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.gateway.Client;
import io.pmedia.gateway.service.ClientRegistry;

/** The bodies of the operator onboarding API (contracts.md, "Vendor onboarding"). */
public final class ClientDtos {

    private ClientDtos() {
    }

    /** {@code POST /admin/clients}: unknown keys are refused, as PATCH refuses them (a typo is never ignored). */
    public record NewClient(String name, @JsonProperty("webhook-url") String webhookUrl,
            @JsonProperty("allowed-ips") List<String> allowedIps, JsonNode sharing) {

        public static final java.util.Set<String> FIELDS = java.util.Set.of("name", "webhook-url", "allowed-ips",
                "sharing");
    }

    /** A vendor's share page settings (docs/sharing.md); null values: the platform's defaults. */
    public record Sharing(@JsonProperty("retention-days") Integer retentionDays,
            @JsonProperty("logo-url") String logoUrl, String color,
            @JsonProperty("embed-origins") List<String> embedOrigins) {

        public static Sharing of(Client client) {
            return new Sharing(client.shareRetentionDays, client.brandLogoUrl, client.brandColor,
                    client.embedOriginList());
        }
    }

    /** The answer to onboarding: the only time the secret, API key and webhook secret are shown. */
    public record OnboardedClient(@JsonProperty("client-id") UUID clientId,
            @JsonProperty("client-secret") String clientSecret, @JsonProperty("api-key") String apiKey,
            @JsonProperty("webhook-secret") String webhookSecret, String name,
            @JsonProperty("webhook-url") String webhookUrl, @JsonProperty("allowed-ips") List<String> allowedIps,
            Sharing sharing) {

        static OnboardedClient of(ClientRegistry.Onboarded onboarded) {
            Client client = onboarded.client();
            return new OnboardedClient(client.id, onboarded.secret(), onboarded.apiKey(), client.webhookSecret,
                    client.name, client.webhookUrl, client.allowedIpList(), Sharing.of(client));
        }
    }

    /** A client as the operator reads it: no secrets. */
    public record ClientView(@JsonProperty("client-id") UUID clientId, String name,
            @JsonProperty("webhook-url") String webhookUrl, @JsonProperty("allowed-ips") List<String> allowedIps,
            Sharing sharing, @JsonProperty("created-at") Instant createdAt,
            @JsonProperty("updated-at") Instant updatedAt,
            @JsonProperty("webhook-event-types") List<String> webhookEventTypes) {

        static ClientView of(Client client) {
            return new ClientView(client.id, client.name, client.webhookUrl, client.allowedIpList(),
                    Sharing.of(client), client.createdAt, client.updatedAt, client.webhookEventTypeList());
        }
    }

    /** {@code POST /admin/clients/{id}/rotate-secret}: the new client secret, shown once. */
    public record RotatedSecret(@JsonProperty("client-id") UUID clientId,
            @JsonProperty("client-secret") String clientSecret) {
    }

    /** {@code POST /admin/clients/{id}/rotate-api-key}: the new API key, shown once. */
    public record RotatedApiKey(@JsonProperty("client-id") UUID clientId, @JsonProperty("api-key") String apiKey) {
    }

    /** {@code POST /admin/clients/{id}/rotate-webhook-secret}: the new secret; the old one signs along until then. */
    public record RotatedWebhookSecret(@JsonProperty("client-id") UUID clientId,
            @JsonProperty("webhook-secret") String webhookSecret,
            @JsonProperty("previous-valid-until") Instant previousValidUntil) {
    }

    /** {@code GET /internal/clients/{id}}: what the notifier needs to deliver and sign webhooks. */
    public record WebhookRegistration(@JsonProperty("client-id") UUID clientId, String name,
            @JsonProperty("webhook-url") String webhookUrl,
            @JsonProperty("webhook-secrets") List<WebhookSecret> webhookSecrets,
            @JsonProperty("event-types") List<String> eventTypes) {

        static WebhookRegistration of(Client client) {
            return new WebhookRegistration(client.id, client.name, client.webhookUrl, client
                    .signingSecrets(Instant.now()).stream()
                    .map(secret -> new WebhookSecret(secret.secret(), secret.expiresAt())).toList(),
                    client.webhookEventTypeList());
        }
    }

    /** {@code PUT /internal/clients/{id}/webhook}: the endpoint as its vendor sets it through the notifier. */
    public record WebhookEndpoint(String url, @JsonProperty("event-types") List<String> eventTypes) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record WebhookSecret(String secret, @JsonProperty("expires-at") Instant expiresAt) {
    }
}
