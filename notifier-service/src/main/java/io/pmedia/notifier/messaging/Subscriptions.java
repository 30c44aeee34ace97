package io.pmedia.notifier.messaging;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.client.WebhookRegistration;
import io.pmedia.notifier.client.WebhookRegistrations;
import io.pmedia.notifier.repository.NewDelivery;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Which candidate deliveries their clients' endpoints subscribe to (docs/webhooks.md): the registry is asked through
 * its short cache, and while it cannot answer the batch waits, as it waits for PostgreSQL.
 */
@ApplicationScoped
public class Subscriptions {

    private static final Logger LOG = Logger.getLogger(Subscriptions.class);

    private final WebhookRegistrations registrations;

    public Subscriptions(WebhookRegistrations registrations) {
        this.registrations = registrations;
    }

    /** The deliveries whose client's endpoint subscribes to their event. */
    public Uni<List<NewDelivery>> wanted(List<NewDelivery> candidates) {
        if (candidates.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Multi.createFrom().iterable(candidates)
                .onItem().transformToUniAndConcatenate(delivery -> Uni.createFrom()
                        .deferred(() -> registrations.lookup(delivery.clientId()))
                        .onFailure().invoke(failure -> LOG.warnf("client registry unavailable (%s); %s waits",
                                failure.getMessage(), delivery.kind().wire()))
                        .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10))
                        .indefinitely()
                        .map(found -> wanted(found, delivery) ? delivery : null))
                .filter(Objects::nonNull)
                .collect().asList();
    }

    private static boolean wanted(Optional<WebhookRegistration> found, NewDelivery delivery) {
        return found.filter(WebhookRegistration::hasWebhook)
                .filter(registration -> registration.subscribes(delivery.kind().eventType())).isPresent();
    }
}
