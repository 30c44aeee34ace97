package io.pmedia.notifier.service;

import java.io.IOException;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.DeliveryExhausted;
import io.pmedia.notifier.repository.AttemptRecord;
import io.pmedia.notifier.repository.Claim;
import io.pmedia.notifier.repository.DeliveryStore;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;

/**
 * Gives up on a delivery whose schedule is used up: its last attempt, the EXHAUSTED status and the
 * {@code pmedia.webhook.dead-letter} event (docs/events.md) are written in one transaction, through the outbox.
 */
@ApplicationScoped
public class DeadLetters {

    private final DeliveryStore store;
    private final EventPublisher publisher;
    private final ObjectMapper mapper;

    public DeadLetters(DeliveryStore store, EventPublisher publisher, ObjectMapper mapper) {
        this.store = store;
        this.publisher = publisher;
        this.mapper = mapper;
    }

    /** Returns false when the claim had lost its lease (nothing written). Needs a safe Vert.x context. */
    @WithTransaction
    public Uni<Boolean> exhaust(Claim claim, AttemptRecord last) {
        return store.recordExhausted(claim, last)
                .flatMap(written -> written
                        ? publisher.publish(event(claim, last)).replaceWith(true)
                        : Uni.createFrom().item(false));
    }

    private DeliveryExhausted event(Claim claim, AttemptRecord last) {
        return new DeliveryExhausted(claim.clientId(), claim.webhookId(), claim.eventId(), last.url(),
                claim.attempts() + 1, last.outcome().statusCode(), last.outcome().error(), payload(claim.payload()));
    }

    private JsonNode payload(String json) {
        try {
            return mapper.readTree(json);
        } catch (IOException e) {
            return mapper.getNodeFactory().textNode(json);
        }
    }
}
