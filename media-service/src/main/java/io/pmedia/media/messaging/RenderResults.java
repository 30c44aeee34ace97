package io.pmedia.media.messaging;

import java.io.IOException;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.event.CloudEvent;
import io.pmedia.media.service.MediaRequests;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Applies render results to realtime requests (results of other producers are theirs), and resubmits renders that
 * never came back. The offset of a result is committed after its request was updated; a result that cannot be
 * applied (database away) is dropped, and the stale-render sweep submits the render again.
 */
@ApplicationScoped
public class RenderResults {

    private static final Logger LOG = Logger.getLogger(RenderResults.class);

    private final ObjectMapper mapper;
    private final MediaRequests requests;
    private final Vertx vertx;

    public RenderResults(ObjectMapper mapper, MediaRequests requests, Vertx vertx) {
        this.mapper = mapper;
        this.requests = requests;
        this.vertx = vertx;
    }

    @Incoming("render-results-in")
    public Uni<Void> onResult(String envelope) {
        RenderResult result;
        try {
            CloudEvent event = mapper.readValue(envelope, CloudEvent.class);
            result = mapper.treeToValue(event.data(), RenderResult.class);
        } catch (IOException | IllegalArgumentException e) {
            LOG.errorf("dropping a render result that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (!RenderTopics.MEDIA_PRODUCER.equals(result.producer())) {
            return Uni.createFrom().voidItem();
        }
        return requests.complete(result);
    }

    /** On a fresh safe context of its own, as reactive Hibernate needs (not the scheduler's thread). */
    @Scheduled(every = "${pmedia.media.render.sweep-every:60s}", delayed = "${pmedia.media.render.sweep-delay:30s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> resubmitStale() {
        return BackgroundWork.call(vertx, requests::resubmitStale).replaceWithVoid();
    }
}
