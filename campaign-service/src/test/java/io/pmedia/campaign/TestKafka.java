package io.pmedia.campaign;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

import io.opentelemetry.api.OpenTelemetry;
import io.pmedia.common.outbox.KafkaOutboxSender;
import io.pmedia.common.outbox.OutboxMessage;
import io.pmedia.common.outbox.OutboxSender;
import io.pmedia.common.tracing.Traces;
import io.smallrye.mutiny.Uni;

/**
 * The outbox's way to Kafka in tests: the service's own producer, unless a test takes Kafka away (a real producer
 * whose broker is not there, failing as an outage does) or holds acknowledgements back.
 */
@Alternative
@Priority(1)
@Singleton
public class TestKafka implements OutboxSender {

    private final KafkaOutboxSender broker;
    private final KafkaOutboxSender nowhere;
    private final AtomicInteger failedBatches = new AtomicInteger();
    private final AtomicInteger heldBatches = new AtomicInteger();
    private volatile boolean down;
    private volatile CompletableFuture<Void> held = CompletableFuture.completedFuture(null);

    public TestKafka(KafkaOutboxSender broker) {
        this.broker = broker;
        this.nowhere = new KafkaOutboxSender(Map.of("bootstrap.servers", "127.0.0.1:" + closedPort()),
                "campaign-service-test", new Traces(OpenTelemetry.noop().getTracer("test")));
    }

    @Override
    public Uni<Void> send(List<OutboxMessage> messages) {
        if (down) {
            return nowhere.send(messages).onFailure().invoke(failedBatches::incrementAndGet);
        }
        CompletableFuture<Void> gate = held;
        if (!gate.isDone()) {
            heldBatches.incrementAndGet();
        }
        return Uni.createFrom().completionStage(gate).flatMap(ignored -> broker.send(messages));
    }

    /** From now on batches fail the way they do while no broker answers. */
    public void takeDown() {
        failedBatches.set(0);
        down = true;
    }

    /** From now on batches are acknowledged by the test broker again. */
    public void bringBack() {
        down = false;
    }

    /** How many batches failed since {@link #takeDown()}. */
    public int failedBatches() {
        return failedBatches.get();
    }

    /** From now on batches wait for {@link #acknowledge()} before they reach the broker. */
    public void holdAcknowledgements() {
        heldBatches.set(0);
        held = new CompletableFuture<>();
    }

    public void acknowledge() {
        held.complete(null);
    }

    /** How many batches are waiting since {@link #holdAcknowledgements()}. */
    public int heldBatches() {
        return heldBatches.get();
    }

    @PreDestroy
    void close() {
        acknowledge();
        nowhere.close();
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
