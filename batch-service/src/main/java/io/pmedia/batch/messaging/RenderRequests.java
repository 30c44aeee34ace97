package io.pmedia.batch.messaging;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.pmedia.batch.service.OnViewRenders;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.smallrye.mutiny.Uni;

/**
 * First views of share links rendered on view ({@code pmedia.engagement.renders}, from engagement-service): those of
 * batch rows are claimed and rendered once ({@link OnViewRenders}); realtime ones are media-service's. The offset is
 * committed after the claim; a claim that cannot be made now (database away) is dropped with a warning and made at
 * the link's next open or retry.
 */
@ApplicationScoped
public class RenderRequests {

    private static final Logger LOG = Logger.getLogger(RenderRequests.class);

    private final EventCodec codec;
    private final OnViewRenders onView;

    public RenderRequests(EventCodec codec, OnViewRenders onView) {
        this.codec = codec;
        this.onView = onView;
    }

    @Incoming("render-on-view")
    public Uni<Void> onRequest(String envelope) {
        RenderOnView request;
        try {
            request = codec.decode(envelope, RenderOnView.class).orElse(null);
        } catch (EventCodec.UnreadableEvent e) {
            LOG.errorf("dropping a render request that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (request == null || request.source() != SharedVideo.Source.batch) {
            return Uni.createFrom().voidItem();
        }
        return onView.viewed(request)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("render on view of %s/%s not claimed (the next open asks again): %s", request.taskId(),
                            request.row(), failure.getMessage());
                    return false;
                })
                .replaceWithVoid();
    }
}
