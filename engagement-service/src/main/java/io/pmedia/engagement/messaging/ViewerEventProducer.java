package io.pmedia.engagement.messaging;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.pmedia.engagement.service.ViewerEventSink;
import io.pmedia.events.EventCodec;
import io.pmedia.events.ViewerEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * Viewer events on {@code pmedia.engagement.events} (the {@code viewer-events} channel), keyed by the share id. A
 * beacon is the platform's busiest path (docs/decisions.md, "The beacon route"): while the channel's producer
 * delivers, an event goes to it from the calling thread, without the emitter's hand-over; otherwise through the
 * emitter, whose thread may wait for the broker's metadata.
 */
@ApplicationScoped
public class ViewerEventProducer implements ViewerEventSink {

    private static final String SOURCE = "/engagement-service/beacons";
    private static final String CHANNEL = "viewer-events";
    /** How long an event waits for the broker: the producer's {@code delivery.timeout.ms}. */
    private static final Duration DELIVERY = Duration.ofSeconds(5);
    /** A producer that delivered this recently has the broker's metadata: sending to it does not wait. */
    private static final Duration WARM = Duration.ofSeconds(30);

    private final EventCodec codec;
    private final MutinyEmitter<String> emitter;
    private final KafkaClientService kafka;
    private final String topic;
    private volatile Producer<String, String> direct;
    /** When the producer last delivered an event ({@link System#nanoTime}); long ago at first. */
    private volatile long deliveredAt = System.nanoTime() - WARM.toNanos() - 1;

    public ViewerEventProducer(EventCodec codec, @Channel(CHANNEL) MutinyEmitter<String> emitter,
            KafkaClientService kafka,
            @ConfigProperty(name = "mp.messaging.outgoing." + CHANNEL + ".topic") String topic) {
        this.codec = codec;
        this.emitter = emitter;
        this.kafka = kafka;
        this.topic = topic;
    }

    @Override
    public boolean delivering() {
        return deliveringProducer() != null;
    }

    /**
     * Sent from the calling thread: what the emitter does on a thread of its own, without the hand-over. The
     * producer answers within {@link #DELIVERY} (its {@code delivery.timeout.ms}), delivered or not.
     */
    @Override
    public CompletionStage<Void> sendNow(ViewerEvent event) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        Producer<String, String> producer = deliveringProducer();
        if (producer == null) {
            return publish(event).subscribeAsCompletionStage();
        }
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, event.shareId(), codec.json(SOURCE, event));
        try {
            producer.send(record, (metadata, failure) -> {
                if (failure == null) {
                    deliveredAt = System.nanoTime();
                    sent.complete(null);
                } else {
                    cooled();
                    sent.completeExceptionally(failure);
                }
            });
        } catch (KafkaException | IllegalStateException e) {
            // A producer that cannot take a record at all (closed, fenced, out of buffer): as the broker being down.
            cooled();
            sent.completeExceptionally(e);
        }
        return sent;
    }

    @Override
    public Uni<Void> publish(ViewerEvent event) {
        Message<String> message = Message.of(codec.json(SOURCE, event)).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withKey(event.shareId()).build());
        return emitter.sendMessage(message).ifNoItem().after(DELIVERY).fail()
                .invoke(() -> deliveredAt = System.nanoTime());
    }

    /**
     * The channel's producer while it delivers (an event went through it within {@link #WARM}), else null: sending
     * from the calling thread must never wait, and a producer that has not delivered lately may have to wait for
     * the broker's metadata (up to its {@code max.block.ms}), which the emitter's own thread does instead.
     */
    private Producer<String, String> deliveringProducer() {
        if (System.nanoTime() - deliveredAt > WARM.toNanos()) {
            return null;
        }
        Producer<String, String> producer = direct;
        if (producer == null) {
            var channel = kafka.<String, String>getProducer(CHANNEL);
            producer = direct = channel == null ? null : channel.unwrap();
        }
        return producer;
    }

    /**
     * A send that failed: the next events take the emitter's thread until one is delivered again. A broker that went
     * away can take the topic's metadata with it, and a send then waits for it (up to {@code max.block.ms}, 500 ms):
     * that wait belongs on the emitter's thread, and on an event loop it happens at most once per loop.
     */
    private void cooled() {
        deliveredAt = System.nanoTime() - WARM.toNanos() - 1;
    }
}
