package io.pmedia.vton.service;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.TryOnStatusChanged;
import io.pmedia.storage.ObjectStore;
import io.pmedia.vton.TryOnRequest;
import io.smallrye.mutiny.Uni;

/** Publishes a try-on request's status through the outbox, in the same transaction as the change (docs/events.md). */
@ApplicationScoped
public class TryOnEvents {

    private final EventPublisher publisher;
    private final ObjectStore store;

    public TryOnEvents(EventPublisher publisher, ObjectStore store) {
        this.publisher = publisher;
        this.store = store;
    }

    public Uni<Void> statusOf(TryOnRequest request) {
        return publisher.publish(new TryOnStatusChanged(request.clientId, request.id, request.userId,
                request.usecaseId, request.status,
                request.outputKey == null ? null : store.publicUrl(request.outputKey), request.message));
    }
}
