package io.pmedia.notifier.service;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.notifier.config.NotifierConfig;
import io.pmedia.notifier.repository.DeliveryStore;
import io.pmedia.notifier.repository.NewDelivery;
import io.smallrye.mutiny.Uni;

/**
 * Where the consumers hand new deliveries in: stored in one statement (a duplicate inserts nothing), retried while
 * PostgreSQL cannot take them (the consumer's batch, and so its offsets, wait), then dispatched at once by this
 * replica, which holds their lease.
 */
@ApplicationScoped
public class DeliveryIntake {

    private static final Logger LOG = Logger.getLogger(DeliveryIntake.class);

    private final DeliveryStore store;
    private final DeliveryDispatcher dispatcher;
    private final NotifierConfig config;

    public DeliveryIntake(DeliveryStore store, DeliveryDispatcher dispatcher, NotifierConfig config) {
        this.store = store;
        this.dispatcher = dispatcher;
        this.config = config;
    }

    /** Completes once the deliveries are stored (never fails: it retries until they are). */
    public Uni<Void> take(List<NewDelivery> deliveries) {
        if (deliveries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> store.insertNew(deliveries, config.lease()))
                .onFailure().invoke(failure -> LOG.warnf("cannot store %d webhook deliveries yet (%s); retrying",
                        deliveries.size(), failure.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .invoke(claims -> LOG.debugf("%d new deliveries stored", claims.size()))
                .invoke(dispatcher::submit)
                .replaceWithVoid();
    }
}
