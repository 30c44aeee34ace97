package io.pmedia.notifier.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What one endpoint may take now: at most {@code maxConcurrency} requests in flight, a bounded queue behind them, and
 * a circuit breaker. The breaker opens after {@code failureThreshold} consecutive failures (timeouts, connection
 * errors, 5xx); while open, work is rejected at once (the caller records a failed attempt without sending) instead of
 * tying up slots on a dead endpoint. After {@code openForNanos} one probe goes through (half-open) while the rest
 * wait in the queue; its success closes the breaker, its failure opens it again. State is per replica and in
 * memory: it protects this process's resources, the durable schedule is in PostgreSQL.
 *
 * @param <T> the work item
 */
public final class EndpointGate<T> {

    /** What to do with items after a call: start them, fail them fast (breaker open), or put them back (full). */
    public record Decision<T>(List<T> run, List<T> reject, List<T> overflow) {

        static <T> Decision<T> none() {
            return new Decision<>(List.of(), List.of(), List.of());
        }
    }

    private enum Breaker {
        CLOSED, OPEN, HALF_OPEN
    }

    private final int maxConcurrency;
    private final int maxQueue;
    private final int failureThreshold;
    private final long openForNanos;
    private final LongSupplier clock;

    private final Deque<T> queue = new ArrayDeque<>();
    private int inFlight;
    private int consecutiveFailures;
    private Breaker breaker = Breaker.CLOSED;
    private long openUntil;

    public EndpointGate(int maxConcurrency, int maxQueue, int failureThreshold, long openForNanos,
            LongSupplier clock) {
        this.maxConcurrency = Math.max(1, maxConcurrency);
        this.maxQueue = Math.max(0, maxQueue);
        this.failureThreshold = Math.max(1, failureThreshold);
        this.openForNanos = openForNanos;
        this.clock = clock;
    }

    /** Offers one item. */
    public synchronized Decision<T> admit(T item) {
        if (breaker == Breaker.OPEN) {
            if (clock.getAsLong() - openUntil < 0) {
                return new Decision<>(List.of(), List.of(item), List.of());
            }
            breaker = Breaker.HALF_OPEN;
            if (inFlight == 0) {
                inFlight++;
                return new Decision<>(List.of(item), List.of(), List.of());
            }
        }
        int limit = breaker == Breaker.HALF_OPEN ? 1 : maxConcurrency;
        if (inFlight < limit && queue.isEmpty()) {
            inFlight++;
            return new Decision<>(List.of(item), List.of(), List.of());
        }
        if (queue.size() < maxQueue) {
            queue.addLast(item);
            return Decision.none();
        }
        return new Decision<>(List.of(), List.of(), List.of(item));
    }

    /**
     * Reports the end of one started item.
     *
     * @param success the endpoint answered (any answer that is not a failure of the endpoint itself)
     */
    public synchronized Decision<T> complete(boolean success) {
        inFlight--;
        if (success) {
            consecutiveFailures = 0;
            breaker = Breaker.CLOSED;
        } else {
            consecutiveFailures++;
            if (breaker == Breaker.HALF_OPEN || consecutiveFailures >= failureThreshold) {
                breaker = Breaker.OPEN;
                openUntil = clock.getAsLong() + openForNanos;
                // What waits would only wait for a dead endpoint: fail it fast now, as new arrivals will be.
                List<T> rejected = new ArrayList<>(queue);
                queue.clear();
                return new Decision<>(List.of(), rejected, List.of());
            }
        }
        return startQueued();
    }

    /** An explicit success seen elsewhere (a vendor's test or replay): the endpoint is back. */
    public synchronized Decision<T> reset() {
        consecutiveFailures = 0;
        breaker = Breaker.CLOSED;
        return startQueued();
    }

    /** Empties the queue (shutting down); the caller gives the items back. */
    public synchronized List<T> drain() {
        List<T> drained = new ArrayList<>(queue);
        queue.clear();
        return drained;
    }

    private Decision<T> startQueued() {
        int limit = breaker == Breaker.HALF_OPEN ? 1 : maxConcurrency;
        List<T> start = new ArrayList<>();
        while (inFlight < limit && !queue.isEmpty()) {
            start.add(queue.pollFirst());
            inFlight++;
        }
        return start.isEmpty() ? Decision.none() : new Decision<>(start, List.of(), List.of());
    }

    public synchronized boolean idle() {
        return inFlight == 0 && queue.isEmpty() && breaker == Breaker.CLOSED;
    }

    public synchronized boolean open() {
        return breaker == Breaker.OPEN;
    }

    public synchronized int consecutiveFailures() {
        return consecutiveFailures;
    }

    public synchronized int inFlight() {
        return inFlight;
    }

    public synchronized int queued() {
        return queue.size();
    }
}
