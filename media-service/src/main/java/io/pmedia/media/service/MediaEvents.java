package io.pmedia.media.service;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.MediaStatusChanged;
import io.pmedia.events.RenderJob;
import io.pmedia.media.MediaRequest;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/** What media-service publishes, always through the outbox, in the transaction of the change (docs/events.md). */
@ApplicationScoped
public class MediaEvents {

    private final EventPublisher publisher;
    private final ObjectStore store;

    public MediaEvents(EventPublisher publisher, ObjectStore store) {
        this.publisher = publisher;
        this.store = store;
    }

    /** The request's current status on {@code pmedia.media.status}. */
    public Uni<Void> status(MediaRequest request) {
        return publisher.publish(new MediaStatusChanged(request.clientId, request.id, request.clientRequestId,
                request.userId, request.customerId, request.useCaseId, request.referenceRecordId, request.status,
                request.message, request.videoKey == null ? null : store.publicUrl(request.videoKey),
                request.thumbnailKey == null ? null : store.publicUrl(request.thumbnailKey), request.shareId));
    }

    /** A render job for the workers on {@code pmedia.render.jobs}. */
    public Uni<Void> renderJob(RenderJob job) {
        return publisher.publish(job);
    }
}
