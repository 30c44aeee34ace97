package io.pmedia.notifier.client;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.client.ClientRegistryClient;
import io.pmedia.common.client.RotatedWebhookSecret;
import io.pmedia.common.client.WebhookEndpoint;
import io.pmedia.common.client.WebhookRegistration;
import io.pmedia.common.concurrent.SingleFlightCache;
import io.pmedia.notifier.config.NotifierConfig;
import io.smallrye.mutiny.Uni;

/**
 * Webhook URLs and secrets of clients, as the gateway (the source of truth) tells them, kept for a short while: a
 * burst of pushes for one client costs one registry call, and a URL or secret change is seen within the cache
 * lifetime. Concurrent lookups of the same client share one call. A cache in front of platform-common's
 * {@link ClientRegistryClient}, which owns the calls' timeouts, retries and breaker; a change made through it refreshes
 * the cache.
 */
@ApplicationScoped
public class WebhookRegistrations {

    private static final Logger LOG = Logger.getLogger(WebhookRegistrations.class);
    private static final int MAX_CLIENTS = 100_000;

    private final ClientRegistryClient client;
    private final Duration ttl;
    private final SingleFlightCache<UUID, Optional<WebhookRegistration>> registrations;

    public WebhookRegistrations(ClientRegistryClient client, NotifierConfig config) {
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

    /**
     * Replaces the client's endpoint in the gateway's registry (which checks it) and answers the registration as it
     * now is; the cache is refreshed so that every delivery from now on sees it (should that read fail, the cache
     * lifetime bounds the delay). Fails with the registry's refusal or outage as it came.
     */
    public Uni<WebhookRegistration> replaceWebhook(UUID clientId, WebhookEndpoint endpoint) {
        return client.replaceWebhook(clientId, endpoint).call(ignored -> refreshQuietly(clientId));
    }

    /** A new webhook secret from the registry (the previous one signs beside it for 24 hours); the cache follows. */
    public Uni<RotatedWebhookSecret> rotateWebhookSecret(UUID clientId) {
        return client.rotateWebhookSecret(clientId).call(ignored -> refreshQuietly(clientId));
    }

    /** A change was made: its answer stands even when reading it back fails now. */
    private Uni<?> refreshQuietly(UUID clientId) {
        return registrations.refresh(clientId).onFailure().invoke(failure -> LOG.debugf(
                "client %s changed, but reading it back failed (%s); the cache catches up", clientId,
                failure.getMessage())).onFailure().recoverWithNull();
    }

    /** Asks the gateway now, for explicit vendor actions that must see a just-changed URL (test, replay). */
    public Uni<Optional<WebhookRegistration>> fresh(UUID clientId) {
        return registrations.refresh(clientId);
    }
}
