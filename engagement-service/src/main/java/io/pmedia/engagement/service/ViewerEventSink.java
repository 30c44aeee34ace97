package io.pmedia.engagement.service;

import java.util.concurrent.CompletionStage;

import io.pmedia.events.ViewerEvent;
import io.smallrye.mutiny.Uni;

/**
 * Where accepted viewer events go: {@code pmedia.engagement.events}, keyed by the share id. The port through which
 * {@link Beacons} hands events to the broker; messaging/ViewerEventProducer is the Kafka side of it.
 */
public interface ViewerEventSink {

    /**
     * Whether an event can be sent from the calling thread without waiting: the producer has delivered lately, so it
     * holds the broker's metadata (a cold producer may wait for it, which the channel's own thread does instead).
     */
    boolean delivering();

    /**
     * The event sent from the calling thread (when {@link #delivering()}); completes on the producer's thread once
     * the broker has it, exceptionally when it cannot take it.
     */
    CompletionStage<Void> sendNow(ViewerEvent event);

    /** The event through the channel's own thread; fails when the broker has not taken it within the delivery time. */
    Uni<Void> publish(ViewerEvent event);
}
