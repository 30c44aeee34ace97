package io.pmedia.media.service;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.common.outbox.Outbox;
import io.pmedia.media.MediaRequest;
import io.pmedia.media.messaging.RenderJob;
import io.pmedia.media.messaging.RenderTopics;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/** What media-service publishes, always through the outbox, in the transaction of the change (docs/events.md). */
@ApplicationScoped
public class MediaEvents {

    static final String SOURCE = "/pmedia/media-service";

    private final Outbox outbox;
    private final ObjectMapper mapper;
    private final ObjectStore store;

    public MediaEvents(Outbox outbox, ObjectMapper mapper, ObjectStore store) {
        this.outbox = outbox;
        this.mapper = mapper;
        this.store = store;
    }

    /** The request's current status on {@code pmedia.media.status}. */
    public Uni<Void> status(MediaRequest request) {
        ObjectNode data = mapper.createObjectNode()
                .put("client-id", request.clientId.toString())
                .put("service-request-id", request.id.toString())
                .put("client-request-id", request.clientRequestId)
                .put("user-id", request.userId)
                .put("customer-id", request.customerId)
                .put("use-case-id", request.useCaseId)
                .put("reference-record-id", request.referenceRecordId)
                .put("status", request.status.name())
                .put("message", request.message)
                .put("video-url", request.videoKey == null ? null : store.publicUrl(request.videoKey))
                .put("image-url", request.thumbnailKey == null ? null : store.publicUrl(request.thumbnailKey));
        String key = request.id.toString();
        return outbox.add(Topics.MEDIA_STATUS, key,
                CloudEvent.of(SOURCE, Topics.MEDIA_STATUS_CHANGED, key, data));
    }

    /** A render job for the workers on {@code pmedia.render.jobs}. */
    public Uni<Void> renderJob(RenderJob job) {
        return outbox.add(RenderTopics.JOBS, job.jobId(),
                CloudEvent.of(SOURCE, RenderTopics.JOB_TYPE, job.jobId(), mapper.valueToTree(job)));
    }
}
