package io.pmedia.notifier.service;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.pmedia.notifier.config.NotifierConfig;
import io.pmedia.notifier.repository.EndpointStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Endpoints that answered 410 Gone, per client and URL. PostgreSQL holds the list; each replica keeps a copy that it
 * updates at once for its own changes and re-reads periodically for the others'.
 */
@ApplicationScoped
public class DisabledEndpoints {

    private static final Logger LOG = Logger.getLogger(DisabledEndpoints.class);

    private final EndpointStore store;
    private final Vertx vertx;
    private final NotifierConfig config;
    private final Set<String> disabled = ConcurrentHashMap.newKeySet();
    private long timer = -1;

    public DisabledEndpoints(EndpointStore store, Vertx vertx, NotifierConfig config) {
        this.store = store;
        this.vertx = vertx;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        refresh();
        timer = vertx.setPeriodic(config.disabledRefresh().toMillis(), id -> refresh());
    }

    void onStop(@Observes ShutdownEvent event) {
        vertx.cancelTimer(timer);
    }

    private void refresh() {
        store.disabledEndpoints().subscribe().with(keys -> {
            disabled.retainAll(keys);
            disabled.addAll(keys);
        }, failure -> LOG.warnf("cannot read the disabled endpoints: %s", failure.getMessage()));
    }

    public boolean isDisabled(UUID clientId, String url) {
        return disabled.contains(EndpointStore.endpointKey(clientId, url));
    }

    public Uni<Void> disable(UUID clientId, String url, String reason) {
        disabled.add(EndpointStore.endpointKey(clientId, url));
        return store.disableEndpoint(clientId, url, reason);
    }

    /** Enables an endpoint again, also when another replica disabled it and this one has not seen it yet. */
    public Uni<Void> enable(UUID clientId, String url) {
        disabled.remove(EndpointStore.endpointKey(clientId, url));
        return store.enableEndpoint(clientId, url);
    }
}
