package io.pmedia.media.messaging;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.opentelemetry.api.trace.SpanKind;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.error.Outages;
import io.pmedia.common.tracing.Traces;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.service.OnViewRenders;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * First views of share links rendered on view ({@code pmedia.engagement.renders}, from engagement-service, group
 * {@code pmedia-media-on-view}): those of realtime requests are claimed and rendered once
 * ({@link OnViewRenders#viewed}); batch rows are batch-service's. The offset is committed after the claim; a claim that
 * cannot be made now (database away) is dropped with a warning and made at the link's next open, a retry, or the
 * owner's status read. A timer admits claimed renders that wait for room on the realtime lane (API role only).
 */
@ApplicationScoped
public class FirstViews {

    private static final Logger LOG = Logger.getLogger(FirstViews.class);

    private final EventCodec codec;
    private final OnViewRenders requests;
    private final Traces traces;
    private final Vertx vertx;
    private final boolean admitting;

    public FirstViews(EventCodec codec, OnViewRenders requests, Traces traces, Vertx vertx, MediaConfig config) {
        this.codec = codec;
        this.requests = requests;
        this.traces = traces;
        this.vertx = vertx;
        this.admitting = config.onView().admissionEnabled();
    }

    /** On a fresh safe context of its own, as reactive Hibernate needs (not the scheduler's thread). */
    @Scheduled(every = "${pmedia.media.on-view.admit-every:1s}", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> admitWaiting() {
        if (!admitting) {
            return Uni.createFrom().voidItem();
        }
        return BackgroundWork.call(vertx, requests::admitWaiting).replaceWithVoid()
                .onFailure(Outages::isUnreachableDependency).recoverWithItem(failure -> {
                    LOG.debugf("renders on view not admitted this round (%s)", failure.getMessage());
                    return null;
                });
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
