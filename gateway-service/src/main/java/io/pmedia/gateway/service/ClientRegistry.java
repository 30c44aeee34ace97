package io.pmedia.gateway.service;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.client.WebhookEventType;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.net.Cidr;
import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.wire.WireName;
import io.pmedia.gateway.Client;
import io.pmedia.gateway.IssuedCredential;
import io.pmedia.gateway.repository.ClientStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;

/**
 * The vendor registry: onboarding, reading, changing, rotating and deleting clients. Input rules live here so
 * that every entry point (operator API, future console) applies the same ones.
 */
@ApplicationScoped
public class ClientRegistry {

    /** How long the previous webhook secret keeps signing after a rotation (Standard Webhooks practice). */
    static final Duration WEBHOOK_SECRET_OVERLAP = Duration.ofHours(24);
    private static final int MAX_ALLOWED_IPS = 100;

    private final DestinationPolicy destinations;
    private final ClientStore clients;

    public ClientRegistry(DestinationPolicy destinations, ClientStore clients) {
        this.destinations = destinations;
        this.clients = clients;
    }

    /** A new client with its secret and API key; the webhook secret is the client's own. */
    public record Onboarded(Client client, String secret, String apiKey) {
    }

    public Uni<Onboarded> onboard(String name, String webhookUrl, List<String> allowedIps) {
        return onboard(name, webhookUrl, allowedIps, null);
    }

    /** As above, with the vendor's share page settings ({@code sharing}; docs/sharing.md). */
    @WithSpan
    public Uni<Onboarded> onboard(String name, String webhookUrl, List<String> allowedIps, JsonNode sharing) {
        String validName = validName(name);
        List<String> validIps = validAllowedIps(allowedIps);
        Consumer<Client> sharingSettings = SharingRules.parse(sharing);
        // programmatic: the webhook URL's address check (a DNS lookup) runs before the transaction, not inside it
        return validWebhookUrl(webhookUrl)
                .flatMap(url -> Panache.withTransaction(() -> persistNew(validName, url, validIps, sharingSettings)));
    }

    private Uni<Onboarded> persistNew(String name, String webhookUrl, List<String> allowedIps,
            Consumer<Client> sharing) {
        String secret = Secrets.newClientSecret();
        String apiKey = Secrets.newApiKey();
        String webhookSecret = Secrets.newWebhookSecret();
        Instant now = now();
        Client client = new Client();
        client.id = UUID.randomUUID();
        client.name = name;
        client.secretHash = Secrets.hashSecret(secret);
        client.apiKeyHash = Secrets.hashApiKey(apiKey);
        client.webhookUrl = webhookUrl;
        client.webhookSecret = webhookSecret;
        client.allowedIpList(allowedIps);
        sharing.accept(client);
        client.createdAt = now;
        client.updatedAt = now;
        return client.persist().replaceWith(new Onboarded(client, secret, apiKey));
    }

    /** The client, or a null item when it does not exist (or was deleted). */
    @WithSession
    public Uni<Client> find(UUID id) {
        return clients.findActive(id);
    }

    /** The client; 404 when it does not exist (or was deleted). */
    @WithSession
    public Uni<Client> get(UUID id) {
        return active(id);
    }

    @WithSession
    public Uni<List<Client>> list() {
        return clients.findAllActive();
    }

    /**
     * Applies the fields present in {@code patch}: {@code name}, {@code webhook-url} (null removes it),
     * {@code webhook-event-types}, {@code allowed-ips}, {@code sharing} (its keys present).
     */
    @WithSpan
    public Uni<Client> update(UUID id, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
        List<String> unknown = new ArrayList<>();
        patch.fieldNames().forEachRemaining(field -> {
            if (!List.of("name", "webhook-url", "webhook-event-types", "allowed-ips", "sharing").contains(field)) {
                unknown.add(field);
            }
        });
        if (!unknown.isEmpty()) {
            throw ApiException.validation("field '" + unknown.get(0)
                    + "' cannot be changed; allowed: name, webhook-url, webhook-event-types, allowed-ips, sharing");
        }
        String name = patch.has("name") ? validName(text(patch, "name")) : null;
        List<String> allowedIps = patch.has("allowed-ips") ? validAllowedIps(list(patch, "allowed-ips")) : null;
        List<String> eventTypes = patch.has("webhook-event-types")
                ? validEventTypes("webhook-event-types", list(patch, "webhook-event-types"))
                : null;
        Uni<String> webhook = patch.has("webhook-url")
                ? validWebhookUrl(text(patch, "webhook-url"))
                : Uni.createFrom().nullItem();
        boolean setWebhook = patch.has("webhook-url");
        Consumer<Client> sharing = SharingRules.parse(patch.get("sharing"));
        // programmatic: the webhook URL's address check (a DNS lookup) runs before the transaction, not inside it
        return webhook.flatMap(webhookUrl -> Panache.withTransaction(
                () -> applyUpdate(id, name, setWebhook, webhookUrl, eventTypes, allowedIps, sharing)));
    }

    /**
     * Replaces the client's webhook endpoint, as its vendor sets it ({@code PUT /webhooks/endpoint} through the
     * notifier): the URL under the same address policy as onboarding (null removes it) and the event types (null: the
     * default, the video push).
     */
    @WithSpan
    public Uni<Client> replaceWebhook(UUID id, String webhookUrl, List<String> eventTypes) {
        List<String> types = eventTypes == null
                ? WebhookEventType.DEFAULT.stream().map(WebhookEventType::wire).toList()
                : validEventTypes("event-types", eventTypes);
        // programmatic: the webhook URL's address check (a DNS lookup) runs before the transaction, not inside it
        return validWebhookUrl(webhookUrl, "url").flatMap(url -> Panache.withTransaction(
                () -> applyUpdate(id, null, true, url, types, null, client -> {
                })));
    }

    private Uni<Client> applyUpdate(UUID id, String name, boolean setWebhook, String webhookUrl,
            List<String> eventTypes, List<String> allowedIps, Consumer<Client> sharing) {
        return active(id).map(client -> {
            sharing.accept(client);
            if (name != null) {
                client.name = name;
            }
            if (setWebhook) {
                client.webhookUrl = webhookUrl;
            }
            if (eventTypes != null) {
                client.webhookEventTypeList(eventTypes);
            }
            if (allowedIps != null) {
                client.allowedIpList(allowedIps);
            }
            client.updatedAt = now();
            return client;
        });
    }

    @WithTransaction
    @WithSpan
    public Uni<IssuedCredential> rotateSecret(UUID id) {
        String secret = Secrets.newClientSecret();
        return active(id).map(client -> {
            client.secretHash = Secrets.hashSecret(secret);
            client.updatedAt = now();
            return new IssuedCredential(client, secret);
        });
    }

    @WithTransaction
    @WithSpan
    public Uni<IssuedCredential> rotateApiKey(UUID id) {
        String apiKey = Secrets.newApiKey();
        return active(id).map(client -> {
            client.apiKeyHash = Secrets.hashApiKey(apiKey);
            client.updatedAt = now();
            return new IssuedCredential(client, apiKey);
        });
    }

    /** The client with its new webhook secret; the previous one keeps signing until its expiry. */
    @WithTransaction
    @WithSpan
    public Uni<Client> rotateWebhookSecret(UUID id) {
        String secret = Secrets.newWebhookSecret();
        Instant until = now().plus(WEBHOOK_SECRET_OVERLAP);
        return active(id).map(client -> {
            client.previousWebhookSecret = client.webhookSecret;
            client.previousWebhookExpiresAt = until;
            client.webhookSecret = secret;
            client.updatedAt = now();
            return client;
        });
    }

    /** Deletes (revokes) a client: it reads as absent from now on and its tokens and keys stop working. */
    @WithTransaction
    @WithSpan
    public Uni<Void> delete(UUID id) {
        return active(id).map(client -> {
            client.deletedAt = now();
            client.updatedAt = client.deletedAt;
            return client;
        }).replaceWithVoid();
    }

    /** The client as the notifier needs it: webhook URL and the secrets that sign now. */
    @WithSession
    public Uni<Client> webhookRegistration(UUID id) {
        return active(id);
    }

    private Uni<Client> active(UUID id) {
        return clients.findActive(id).onItem().ifNull()
                .failWith(() -> ApiException.notFound("client " + id + " not found"));
    }

    private static String validName(String name) {
        if (name == null || name.isBlank()) {
            throw ApiException.validation("field 'name' is required");
        }
        if (name.length() > 200) {
            throw ApiException.validation("field 'name' must be at most 200 characters");
        }
        return name.strip();
    }

    /** Known event types, each once, in the order given; an unknown one is 400 naming it and what is allowed. */
    private static List<String> validEventTypes(String field, List<String> values) {
        List<String> valid = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            WebhookEventType type = WireName.find(WebhookEventType.class, value == null ? null : value.strip());
            if (type == null) {
                throw ApiException.validation("field '" + field + "[" + i + "]' must be one of "
                        + WebhookEventType.spellings());
            }
            if (!valid.contains(type.wire())) {
                valid.add(type.wire());
            }
        }
        return List.copyOf(valid);
    }

    private static List<String> validAllowedIps(List<String> values) {
        if (values == null) {
            return List.of();
        }
        if (values.size() > MAX_ALLOWED_IPS) {
            throw ApiException.validation("field 'allowed-ips' holds at most " + MAX_ALLOWED_IPS + " entries");
        }
        List<String> normalized = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            try {
                normalized.add(Cidr.parse(value).toString());
            } catch (IllegalArgumentException e) {
                throw ApiException.validation("field 'allowed-ips[" + i + "]': " + e.getMessage());
            }
        }
        return List.copyOf(normalized);
    }

    /**
     * A webhook URL must be http(s), and must not reach loopback, private, link-local, metadata or reserved
     * addresses after DNS resolution (the same policy the notifier applies on every delivery). A name that does not
     * resolve now is accepted: it cannot be proven harmful, and every delivery checks it again.
     */
    private Uni<String> validWebhookUrl(String value) {
        return validWebhookUrl(value, "webhook-url");
    }

    private Uni<String> validWebhookUrl(String value, String field) {
        if (value == null || value.isBlank()) {
            return Uni.createFrom().nullItem();
        }
        if (value.length() > 2000) {
            throw ApiException.validation("field '" + field + "' must be at most 2000 characters");
        }
        return Blocking.offload(() -> {
            try {
                destinations.check(DestinationPolicy.parse(value));
            } catch (FetchException e) {
                if (e.reason() != FetchException.Reason.UNRESOLVABLE) {
                    throw ApiException.validation("field '" + field + "': " + e.getMessage());
                }
            }
            return value.strip();
        });
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest("field '" + field + "' has the wrong type: expected a string");
        }
        return value.asText();
    }

    private static List<String> list(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw ApiException.badRequest("field '" + field + "' has the wrong type: expected an array");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw ApiException.badRequest("field '" + field + "' has the wrong type: expected an array of strings");
            }
            items.add(item.asText());
        }
        return items;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
