package io.pmedia.notifier.service;

import java.io.IOException;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.common.outbox.Outbox;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.repository.AttemptRecord;
import io.pmedia.notifier.repository.Claim;
import io.pmedia.notifier.repository.DeliveryStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Gives up on a delivery whose schedule is used up: its last attempt, the EXHAUSTED status and the
 * {@code pmedia.webhook.dead-letter} event (docs/events.md) are written in one transaction, through the outbox.
 */
@ApplicationScoped
public class DeadLetters {

    static final String SOURCE = "/pmedia/notifier-service";

    private final Outbox outbox;
    private final ObjectMapper mapper;

    public DeadLetters(Outbox outbox, ObjectMapper mapper) {
        this.outbox = outbox;
        this.mapper = mapper;
    }

    /** Returns false when the claim had lost its lease (nothing written). Needs a safe Vert.x context. */
    public Uni<Boolean> exhaust(Claim claim, AttemptRecord last) {
        Tuple parameters = DeliveryStore.attemptParameters(claim, last, DeliveryStatus.EXHAUSTED, null);
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> {
                    var query = session.createNativeQuery(DeliveryStore.RECORD_ATTEMPT);
                    for (int i = 0; i < parameters.size(); i++) {
                        query.setParameter(i + 1, parameters.getValue(i));
                    }
                    return query.executeUpdate();
                })
                .flatMap(written -> written == 0
                        ? Uni.createFrom().item(false)
                        : outbox.add(Topics.WEBHOOK_DEAD_LETTER, claim.webhookId(), event(claim, last))
                                .replaceWith(true)));
    }

    private CloudEvent event(Claim claim, AttemptRecord last) {
        ObjectNode data = mapper.createObjectNode()
                .put("client-id", claim.clientId().toString())
                .put("webhook-id", claim.webhookId())
                .put("event-id", claim.eventId().toString())
                .put("url", last.url())
                .put("attempts", claim.attempts() + 1)
                .put("last-status", last.outcome().statusCode())
                .put("last-error", last.outcome().error());
        data.set("payload", payload(claim.payload()));
        return CloudEvent.of(SOURCE, Topics.WEBHOOK_EXHAUSTED, claim.webhookId(), data);
    }

    private JsonNode payload(String json) {
        try {
            return mapper.readTree(json);
        } catch (IOException e) {
            return mapper.getNodeFactory().textNode(json);
        }
    }
}
