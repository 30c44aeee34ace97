package io.pmedia.engagement.messaging;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.pmedia.engagement.service.Rollups;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.ViewerEvent;
import io.smallrye.mutiny.Uni;

/**
 * The rollup's input: {@code pmedia.engagement.events}, a poll's records in one transaction. The batch is acknowledged
 * when it has committed (the throttled strategy commits offsets only behind acknowledged batches), so an event the
 * rollup has not counted is delivered again, and counted once (its id). Failures are retried; consumption waits.
 */
@ApplicationScoped
public class ViewerEvents {

    private static final Logger LOG = Logger.getLogger(ViewerEvents.class);

    private final EventCodec codec;
    private final Rollups rollups;

    public ViewerEvents(EventCodec codec, Rollups rollups) {
        this.codec = codec;
        this.rollups = rollups;
    }

    @Incoming("viewer-events-in")
    public Uni<Void> onEvents(ConsumerRecords<String, String> records) {
        List<Rollups.Arrived> batch = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                CloudEvent envelope = codec.read(record.value());
                codec.data(envelope, ViewerEvent.class)
                        .ifPresent(event -> batch.add(new Rollups.Arrived(UUID.fromString(envelope.id()), event)));
            } catch (EventCodec.UnreadableEvent | IllegalArgumentException e) {
                LOG.errorf("skipping a viewer event that cannot be read: %s", e.getMessage());
            }
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> rollups.apply(batch))
                .onFailure().invoke(failure -> LOG.warnf("cannot roll up %d viewer events yet (%s); retrying",
                        batch.size(), failure.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely();
    }
}
