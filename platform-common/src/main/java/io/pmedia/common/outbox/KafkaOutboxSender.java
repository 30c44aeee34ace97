package io.pmedia.common.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.pmedia.common.tracing.Traces;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * The outbox's Kafka producer. Its connection settings are Quarkus' {@code kafka.*} properties (the
 * {@code default-kafka-broker} configuration every channel of the service uses too: bootstrap servers, TLS, SASL);
 * what makes the relay correct is fixed here: acknowledgement by all in-sync replicas and an idempotent producer,
 * so retries neither lose nor reorder records of one key. Acknowledgements arrive as callbacks: no thread waits.
 */
@ApplicationScoped
public class KafkaOutboxSender implements OutboxSender {

    /** How long a batch may take to be acknowledged before the relay gives it up and tries again later. */
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(30);
    private static final byte[] CONTENT_TYPE = "application/cloudevents+json; charset=UTF-8"
            .getBytes(StandardCharsets.UTF_8);

    private final Map<String, Object> settings;
    private final Traces traces;
    private volatile Producer<String, String> producer;

    /** {@code kafka}: the service's {@code kafka.*} properties without the prefix ({@code bootstrap.servers}). */
    @Inject
    public KafkaOutboxSender(@Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String application, Traces traces) {
        this.settings = Map.copyOf(settings(kafka, application));
        this.traces = traces;
    }

    private static Map<String, Object> settings(Map<String, Object> kafka, String application) {
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "pmedia-outbox-" + application);
        // A broker away must fail a batch within seconds, well inside ACK_TIMEOUT, not stall the relay.
        settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "1");
        settings.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
        settings.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        settings.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return settings;
    }

    /**
     * Sends in order, stopping at the first failure. {@code send} itself may block while the producer fetches
     * metadata ({@code max.block.ms}), so the sending runs on a worker thread; the acknowledgements do not.
     */
    @Override
    public Uni<Void> send(List<OutboxMessage> messages) {
        if (messages.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().<Void>emitter(emitter -> {
            Producer<String, String> current = producer();
            AtomicInteger unacknowledged = new AtomicInteger(messages.size());
            AtomicBoolean failed = new AtomicBoolean();
            for (OutboxMessage message : messages) {
                if (failed.get()) {
                    return;
                }
                ProducerRecord<String, String> record = new ProducerRecord<>(message.topic(), message.key(),
                        message.payload());
                record.headers().add("content-type", CONTENT_TYPE);
                Span span = publishSpan(message, record);
                try {
                    current.send(record, (metadata, error) -> {
                        Traces.end(span, error);
                        if (error != null) {
                            if (failed.compareAndSet(false, true)) {
                                emitter.fail(error);
                            }
                        } else if (unacknowledged.decrementAndGet() == 0) {
                            emitter.complete(null);
                        }
                    });
                } catch (RuntimeException e) {
                    Traces.end(span, e);
                    if (failed.compareAndSet(false, true)) {
                        emitter.fail(e);
                    }
                    return;
                }
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .ifNoItem().after(ACK_TIMEOUT).fail();
    }

    /**
     * The span of one record's publication, a child of the trace context its event was written in, and that context
     * on the record ({@code traceparent}). A row written without one gets neither.
     */
    private Span publishSpan(OutboxMessage message, ProducerRecord<String, String> record) {
        if (message.traceParent() == null) {
            return Span.getInvalid();
        }
        Span span = traces.kafka("publish", SpanKind.PRODUCER, message.topic(), message.key(), message.traceParent())
                .startSpan();
        Traces.inject(record.headers(), Traces.parentOf(Context.root().with(span)));
        return span;
    }

    private Producer<String, String> producer() {
        Producer<String, String> current = producer;
        if (current == null) {
            synchronized (this) {
                current = producer;
                if (current == null) {
                    current = new KafkaProducer<>(settings);
                    producer = current;
                }
            }
        }
        return current;
    }

    /** Closes the producer, waiting a little for what is in flight. */
    @PreDestroy
    public void close() {
        Producer<String, String> current = producer;
        if (current != null) {
            current.close(Duration.ofSeconds(5));
        }
    }
}
