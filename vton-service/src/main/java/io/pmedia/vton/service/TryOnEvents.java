package io.pmedia.vton.service;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.common.outbox.Outbox;
import io.pmedia.storage.ObjectStore;
import io.pmedia.vton.TryOnRequest;
import io.smallrye.mutiny.Uni;

/** Publishes a try-on request's status through the outbox, in the same transaction as the change (docs/events.md). */
@ApplicationScoped
public class TryOnEvents {

    static final String SOURCE = "/pmedia/vton-service";

    private final Outbox outbox;
    private final ObjectMapper mapper;
    private final ObjectStore store;

    public TryOnEvents(Outbox outbox, ObjectMapper mapper, ObjectStore store) {
        this.outbox = outbox;
        this.mapper = mapper;
        this.store = store;
    }

    public Uni<Void> statusOf(TryOnRequest request) {
        ObjectNode data = mapper.createObjectNode()
                .put("client-id", request.clientId.toString())
                .put("request-id", request.id.toString())
                .put("user-id", request.userId)
                .put("usecase-id", request.usecaseId)
                .put("status", request.status.name())
                .put("generated-output", request.outputKey == null ? null : store.publicUrl(request.outputKey))
                .put("message", request.message);
        CloudEvent event = CloudEvent.of(SOURCE, Topics.VTON_STATUS_CHANGED, request.id.toString(), data);
        return outbox.add(Topics.VTON_STATUS, request.id.toString(), event);
    }
}
