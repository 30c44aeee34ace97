package io.pmedia.notifier.service;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.client.RotatedWebhookSecret;
import io.pmedia.common.client.WebhookEndpoint;
import io.pmedia.common.client.WebhookEventType;
import io.pmedia.common.client.WebhookRegistration;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.notifier.client.WebhookRegistrations;
import io.pmedia.notifier.repository.EndpointStore;
import io.smallrye.mutiny.Uni;

/**
 * A vendor's own webhook endpoint (beyond the interface; docs/webhooks.md): reading it, replacing its URL and event
 * types, rotating its signing secret. The endpoint lives in the gateway's client registry, beside the client's other
 * credentials (docs/decisions.md): this service is the vendor's door to it, and the registry applies the same address
 * policy and rules as the operator's onboarding. A refusal comes back with the registry's message; an outage is 503.
 */
@ApplicationScoped
public class WebhookEndpoints {

    /** The endpoint as a vendor reads it: never a secret, only until when the previous one still signs. */
    public record Settings(String url, List<String> eventTypes, Instant previousSecretValidUntil, boolean disabled,
            String disabledReason) {
    }

    private final WebhookRegistrations registrations;
    private final EndpointStore store;
    private final ObjectMapper mapper;

    public WebhookEndpoints(WebhookRegistrations registrations, EndpointStore store, ObjectMapper mapper) {
        this.registrations = registrations;
        this.store = store;
        this.mapper = mapper;
    }

    public Uni<Settings> get(UUID clientId) {
        return registrations.fresh(clientId).onFailure().transform(this::refusal)
                .flatMap(found -> settings(clientId, found));
    }

    /** Replaces URL and event types (null: the default, the video push); the URL null removes the endpoint. */
    @WithSpan
    public Uni<Settings> replace(UUID clientId, String url, List<String> eventTypes) {
        return registrations.replaceWebhook(clientId, new WebhookEndpoint(url, eventTypes))
                .onFailure().transform(this::refusal).flatMap(now -> settings(clientId, Optional.of(now)));
    }

    @WithSpan
    public Uni<RotatedWebhookSecret> rotateSecret(UUID clientId) {
        return registrations.rotateWebhookSecret(clientId).onFailure().transform(this::refusal);
    }

    private Uni<Settings> settings(UUID clientId, Optional<WebhookRegistration> found) {
        WebhookRegistration registration = found
                .orElseThrow(() -> ApiException.notFound("client " + clientId + " not found"));
        Instant now = Instant.now();
        Instant previous = registration.webhookSecrets() == null
                ? null
                : registration.webhookSecrets().stream()
                        .filter(secret -> secret != null && secret.expiresAt() != null && secret.validAt(now))
                        .map(WebhookRegistration.Secret::expiresAt).max(Instant::compareTo).orElse(null);
        String url = registration.hasWebhook() ? registration.webhookUrl().trim() : null;
        List<String> types = registration.subscriptions().stream().map(WebhookEventType::wire).toList();
        return (url == null ? Uni.createFrom().<String>nullItem() : store.disabledReason(clientId, url))
                .map(reason -> new Settings(url, types, previous, reason != null, reason));
    }

    /** The registry's 400 (a URL the policy refuses, an unknown event type) and 404 as ours; anything else is 503. */
    private Throwable refusal(Throwable failure) {
        if (failure instanceof ApiException) {
            return failure;
        }
        if (failure instanceof WebApplicationException web && web.getResponse() != null) {
            int status = web.getResponse().getStatus();
            if (status == 400 || status == 404) {
                String message = message(web);
                return status == 400 ? ApiException.validation(message) : ApiException.notFound(message);
            }
        }
        return new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                "the client registry cannot be reached right now; try again shortly", Duration.ofSeconds(5));
    }

    private String message(WebApplicationException web) {
        try {
            JsonNode body = mapper.readTree(web.getResponse().readEntity(String.class));
            String message = body.path("message").asText("");
            return message.isBlank() ? "the endpoint was refused" : message;
        } catch (RuntimeException | IOException e) {
            return "the endpoint was refused";
        }
    }
}
