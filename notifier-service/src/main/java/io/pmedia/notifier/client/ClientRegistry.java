package io.pmedia.notifier.client;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.notifier.config.NotifierConfig;
import io.smallrye.mutiny.Uni;

/**
 * Webhook URLs and secrets of clients, as the gateway (the source of truth) tells them, kept for a short while: a
 * burst of pushes for one client costs one registry call, and a URL or secret change is seen within the cache
 * lifetime. Concurrent lookups of the same client share one call.
 */
@ApplicationScoped
public class ClientRegistry {

    private static final Logger LOG = Logger.getLogger(ClientRegistry.class);

    private record Entry(Optional<WebhookRegistration> registration, long expiresAtNanos) {
    }

    private final ClientRegistryClient client;
    private final long ttlNanos;
    private final Map<UUID, Entry> cache = new ConcurrentHashMap<>();
    private final Map<UUID, Uni<Optional<WebhookRegistration>>> inFlight = new ConcurrentHashMap<>();

    public ClientRegistry(ClientRegistryClient client, NotifierConfig config) {
        this.client = client;
        this.ttlNanos = config.registryCacheTtl().toNanos();
    }

    @PostConstruct
    void warnIfUnconfigured() {
        if (!client.configured()) {
            LOG.warn("pmedia.internal-token (PMEDIA_INTERNAL_TOKEN) is not set: the gateway will refuse registry"
                    + " lookups and no webhook can be delivered");
        }
    }

    /** The client's registration, or empty when the client does not exist. Fails when the gateway cannot answer. */
    public Uni<Optional<WebhookRegistration>> lookup(UUID clientId) {
        Entry entry = cache.get(clientId);
        if (entry != null && entry.expiresAtNanos() - System.nanoTime() > 0) {
            return Uni.createFrom().item(entry.registration());
        }
        return inFlight.computeIfAbsent(clientId, id -> load(id).memoize().indefinitely());
    }

    /** Asks the gateway now, for explicit vendor actions that must see a just-changed URL (test, replay). */
    public Uni<Optional<WebhookRegistration>> fresh(UUID clientId) {
        return load(clientId);
    }

    private Uni<Optional<WebhookRegistration>> load(UUID clientId) {
        return Uni.createFrom().deferred(() -> client.fetch(clientId))
                .invoke(answer -> cache.put(clientId, new Entry(answer, System.nanoTime() + ttlNanos)))
                .eventually(() -> {
                    inFlight.remove(clientId); // a block: the value-returning form would await the removed Uni
                });
    }
}
