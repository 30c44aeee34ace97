package io.pmedia.common.outbox;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.event.CloudEvent;
import io.smallrye.mutiny.Uni;

/**
 * Writes events into the transactional outbox. Call it inside the same reactive transaction as the state change
 * ({@code @WithTransaction}): either both are committed or neither is; {@link OutboxRelay} publishes afterwards.
 */
@ApplicationScoped
public class Outbox {

    private final ObjectMapper mapper;

    public Outbox(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public Uni<Void> add(String topic, String key, CloudEvent event) {
        OutboxEvent row = new OutboxEvent();
        row.eventId = UUID.fromString(event.id());
        row.topic = topic;
        row.recordKey = key;
        row.createdAt = Instant.now();
        try {
            row.payload = mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalArgumentException("event cannot be serialized", e));
        }
        return row.persist().replaceWithVoid();
    }
}
