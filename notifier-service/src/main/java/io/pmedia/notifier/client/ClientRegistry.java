package io.pmedia.notifier.client;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.client.ClientRegistryClient;
import io.pmedia.common.client.WebhookRegistration;
import io.pmedia.common.concurrent.SingleFlightCache;
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
    private static final int MAX_CLIENTS = 100_000;

    private final ClientRegistryClient client;
    private final Duration ttl;
    private final SingleFlightCache<UUID, Optional<WebhookRegistration>> registrations;

    public ClientRegistry(ClientRegistryClient client, NotifierConfig config) {
        this.client = client;
        this.ttl = config.registryCacheTtl();
        this.registrations = new SingleFlightCache<>(client::fetch, ttl, MAX_CLIENTS);
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
        return registrations.get(clientId, ttl);
    }

    /** Asks the gateway now, for explicit vendor actions that must see a just-changed URL (test, replay). */
    public Uni<Optional<WebhookRegistration>> fresh(UUID clientId) {
        return registrations.refresh(clientId);
    }
}
