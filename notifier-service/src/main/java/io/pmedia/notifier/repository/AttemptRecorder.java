package io.pmedia.notifier.repository;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.repository.DeliveryStore.AttemptWrite;
import io.smallrye.mutiny.Uni;

/**
 * Writes attempt outcomes in batches without waiting to fill them: a write goes out at once when fewer than
 * {@value #MAX_IN_FLIGHT} statements are running, and otherwise joins the next statement. Idle, every outcome is
 * written immediately; busy, hundreds share one statement and one commit, which is what keeps PostgreSQL from being
 * the limit of the delivery rate.
 */
@ApplicationScoped
public class AttemptRecorder {

    static final int MAX_IN_FLIGHT = 2;
    static final int MAX_BATCH = 500;

    private record Pending(AttemptWrite write, CompletableFuture<Boolean> done) {
    }

    private final DeliveryStore store;
    private final Deque<Pending> queue = new ArrayDeque<>();
    private int inFlight;

    public AttemptRecorder(DeliveryStore store) {
        this.store = store;
    }

    /**
     * Records a scheduled attempt and the delivery's next state; true when written, false when the claim had lost its
     * lease (nothing written).
     */
    public Uni<Boolean> record(Claim claim, AttemptRecord attempt, DeliveryStatus next, Duration retryIn) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        synchronized (queue) {
            queue.addLast(new Pending(new AttemptWrite(claim, attempt, next, retryIn), done));
        }
        flush();
        return Uni.createFrom().completionStage(done);
    }

    private void flush() {
        List<Pending> batch;
        synchronized (queue) {
            if (inFlight >= MAX_IN_FLIGHT || queue.isEmpty()) {
                return;
            }
            batch = new ArrayList<>(Math.min(queue.size(), MAX_BATCH));
            while (!queue.isEmpty() && batch.size() < MAX_BATCH) {
                batch.add(queue.pollFirst());
            }
            inFlight++;
        }
        store.recordAttempts(batch.stream().map(Pending::write).toList()).subscribe().with(written -> {
            finished();
            batch.forEach(p -> p.done().complete(written.contains(p.write().claim().webhookId())));
        }, failure -> {
            finished();
            batch.forEach(p -> p.done().completeExceptionally(failure));
        });
    }

    private void finished() {
        synchronized (queue) {
            inFlight--;
        }
        flush();
    }
}
