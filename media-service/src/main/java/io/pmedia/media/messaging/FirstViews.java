package io.pmedia.media.messaging;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.opentelemetry.api.trace.SpanKind;
import io.pmedia.common.tracing.Traces;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.pmedia.media.service.MediaRequests;
import io.smallrye.mutiny.Uni;

/**
 * First views of share links rendered on view ({@code pmedia.engagement.renders}, from engagement-service, group
 * {@code pmedia-media-on-view}): those of realtime requests are claimed and rendered once
 * ({@link MediaRequests#viewed}); batch rows are batch-service's. The offset is committed after the claim; a claim that
 * cannot be made now (database away) is dropped with a warning and made at the link's next open, a retry, or the
 * owner's status read.
 */
@ApplicationScoped
public class FirstViews {

    private static final Logger LOG = Logger.getLogger(FirstViews.class);

    private final EventCodec codec;
    private final MediaRequests requests;
    private final Traces traces;

    public FirstViews(EventCodec codec, MediaRequests requests, Traces traces) {
        this.codec = codec;
        this.requests = requests;
        this.traces = traces;
    }

    @Incoming("render-on-view")
    public Uni<Void> onView(ConsumerRecord<String, String> record) {
        RenderOnView view;
        try {
            view = codec.decode(record.value(), RenderOnView.class).orElse(null);
        } catch (EventCodec.UnreadableEvent e) {
            LOG.errorf("dropping a render request that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (view == null || view.source() != SharedVideo.Source.realtime) {
            return Uni.createFrom().voidItem();
        }
        return traces.within(traces.kafka("process", SpanKind.CONSUMER, record.topic(), record.key(),
                Traces.fromHeaders(record.headers())), () -> requests.viewed(view))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("render on view of %s not claimed (the next open asks again): %s",
                            view.serviceRequestId(), failure.getMessage());
                    return false;
                })
                .replaceWithVoid();
    }
}
