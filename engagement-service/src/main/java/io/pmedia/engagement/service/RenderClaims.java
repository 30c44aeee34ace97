package io.pmedia.engagement.service;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Render on first view (docs/sharing.md): the first open of a link whose video is rendered on view (its page, embed,
 * video, poster or email GIF) asks the video's owner to render it, once: the claim is a conditional update of the
 * link's row and the request goes through the outbox in the same transaction, so fifty opens at the same moment on any
 * number of replicas are one request, and a broker that is away delays the request, never the page. A viewer's retry
 * after a failed render claims it again, up to {@value #MAX_ATTEMPTS} claims in all.
 */
@ApplicationScoped
public class RenderClaims {

    static final int MAX_ATTEMPTS = 3;
    private static final Logger LOG = Logger.getLogger(RenderClaims.class);

    private final VideoStore videos;
    private final EventPublisher publisher;
    private final MeterRegistry registry;

    public RenderClaims(VideoStore videos, EventPublisher publisher, MeterRegistry registry) {
        this.videos = videos;
        this.publisher = publisher;
        this.registry = registry;
    }

    /**
     * Asks for the render of {@code video} if it awaits one and nobody asked yet ({@code retry}: after a failed render);
     * true when this call asked. A claim that cannot be made now (database away) is logged and left to the next open:
     * the page answers regardless.
     */
    public Uni<Boolean> claim(SharedVideoRow video, boolean retry) {
        if (video == null || !video.awaitsRender() || !retry && video.renderRequestedAt != null
                || retry && !video.renderFailed()) {
            return Uni.createFrom().item(false);
        }
        // programmatic: only a page whose video awaits its render (above) opens a transaction, not every page open
        return Panache.withTransaction(() -> videos.claimRender(video.shareId, retry, MAX_ATTEMPTS)
                .flatMap(attempt -> {
                    if (attempt == null) {
                        return Uni.createFrom().item(false);
                    }
                    registry.counter("pmedia.engagement.render.claims", "attempt", retry ? "retry" : "first")
                            .increment();
                    return publisher.publish(new RenderOnView(video.clientId, video.shareId,
                            SharedVideo.Source.valueOf(video.source), video.serviceRequestId, video.taskId,
                            video.rowNo, attempt, Instant.now())).replaceWith(true);
                }))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("the render of %s cannot be asked for now (the next open asks again): %s",
                            video.shareId, failure.getMessage());
                    return false;
                });
    }
}
