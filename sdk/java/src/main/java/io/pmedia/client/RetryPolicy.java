package io.pmedia.client;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When the SDK sends a request again: on 429 {@code RATE_LIMITED} and 503 {@code SERVICE_UNAVAILABLE} only, for
 * idempotent requests only (GET, PUT, DELETE, and the POSTs that are safe twice: a token, the realtime creates, which
 * are idempotent by client-request-id, an upload URL, a preview), after the {@code Retry-After} the server sent (or
 * an exponential backoff with jitter when it sent none), at most {@link #maxAttempts()} times in all and never
 * waiting longer than {@link #maxWait()} at once. A batch task create or a cancel is never retried.
 */
public final class RetryPolicy {

    /** Told before each retry; e.g. to log it. */
    public interface Listener {
        void beforeRetry(String method, URI uri, int statusCode, Duration wait, int attempt);
    }

    private final int maxAttempts;
    private final Duration maxWait;
    private final Duration firstBackoff;
    private final Listener listener;

    private RetryPolicy(int maxAttempts, Duration maxWait, Duration firstBackoff, Listener listener) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        this.maxAttempts = maxAttempts;
        this.maxWait = maxWait;
        this.firstBackoff = firstBackoff;
        this.listener = listener;
    }

    /** Four attempts, waits of at most 30 s. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(4, Duration.ofSeconds(30), Duration.ofMillis(500), null);
    }

    /** No retry: every 429 and 503 reaches the caller as an exception. */
    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO, null);
    }

    public RetryPolicy withMaxAttempts(int attempts) {
        return new RetryPolicy(attempts, maxWait, firstBackoff, listener);
    }

    /** A Retry-After longer than this is not waited for: the 429 or 503 reaches the caller at once. */
    public RetryPolicy withMaxWait(Duration wait) {
        return new RetryPolicy(maxAttempts, wait, firstBackoff, listener);
    }

    public RetryPolicy withListener(Listener retryListener) {
        return new RetryPolicy(maxAttempts, maxWait, firstBackoff, retryListener);
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public Duration maxWait() {
        return maxWait;
    }

    /** The wait before attempt {@code attempt + 1} when the server named none: 0.5 s, 1 s, 2 s ... with jitter. */
    Duration backoff(int attempt) {
        long base = firstBackoff.toMillis() << Math.min(attempt - 1, 10);
        return Duration.ofMillis(base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
    }

    void notify(String method, URI uri, int statusCode, Duration wait, int attempt) {
        if (listener != null) {
            listener.beforeRetry(method, uri, statusCode, wait, attempt);
        }
    }
}
