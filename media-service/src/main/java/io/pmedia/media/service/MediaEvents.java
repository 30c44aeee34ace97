package io.pmedia.media.service;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.MediaStatusChanged;
import io.pmedia.events.RenderJob;
import io.pmedia.media.MediaRequest;
import io.pmedia.media.repository.RequestEventStore;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/** What media-service publishes, always through the outbox, in the transaction of the change (docs/events.md). */
@ApplicationScoped
public class MediaEvents {

    private final EventPublisher publisher;
    private final ObjectStore store;
    private final RequestEventStore timeline;

    public MediaEvents(EventPublisher publisher, ObjectStore store, RequestEventStore timeline) {
        this.publisher = publisher;
        this.store = store;
        this.timeline = timeline;
    }

    /** The request's current status on {@code pmedia.media.status}, and on its timeline. */
    public Uni<Void> status(MediaRequest request) {
        return timeline.record(request.id, "status", request.status.name(), request.message)
                .chain(() -> publisher.publish(new MediaStatusChanged(request.clientId, request.id,
                        request.clientRequestId,
                        request.userId, request.customerId, request.useCaseId, request.referenceRecordId,
                        request.status,
                        request.message, request.videoKey == null ? null : store.publicUrl(request.videoKey),
                        request.thumbnailKey == null ? null : store.publicUrl(request.thumbnailKey), request.shareId)));
    }

    /** A render job for the workers on {@code pmedia.render.jobs}, on its request's timeline. */
    public Uni<Void> renderJob(RenderJob job) {
        return timeline.record(UUID.fromString(job.jobId()), "render-job", null, "render job submitted to the workers")
                .chain(() -> publisher.publish(job));
    }
}
