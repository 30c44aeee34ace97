package io.pmedia.client;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * How {@link PmediaClient#renderVideo} and {@link PmediaClient#waitForTask} wait: polling the status with a backoff
 * from {@link #firstInterval()} up to {@link #maxInterval()}, at most {@link #timeout()} in all, telling
 * {@link #onProgress()} each status read (the render's stream-url appears while it is still PROCESSING, a task's
 * processed count grows).
 *
 * @param <T> the status type ({@code MediaStatus} or {@code TaskStatus})
 */
public final class WaitOptions<T> {

    private final Duration timeout;
    private final Duration firstInterval;
    private final Duration maxInterval;
    private final Consumer<? super T> onProgress;

    private WaitOptions(Duration timeout, Duration firstInterval, Duration maxInterval,
            Consumer<? super T> onProgress) {
        this.timeout = timeout;
        this.firstInterval = firstInterval;
        this.maxInterval = maxInterval;
        this.onProgress = onProgress;
    }

    /** Ten minutes at most, polling from every 250 ms up to every 2 s. */
    public static <T> WaitOptions<T> defaults() {
        return new WaitOptions<>(Duration.ofMinutes(10), Duration.ofMillis(250), Duration.ofSeconds(2), null);
    }

    public WaitOptions<T> timeout(Duration total) {
        return new WaitOptions<>(total, firstInterval, maxInterval, onProgress);
    }

    public WaitOptions<T> intervals(Duration first, Duration max) {
        return new WaitOptions<>(timeout, first, max, onProgress);
    }

    public WaitOptions<T> onProgress(Consumer<? super T> callback) {
        return new WaitOptions<>(timeout, firstInterval, maxInterval, callback);
    }

    public Duration timeout() {
        return timeout;
    }

    public Duration firstInterval() {
        return firstInterval;
    }

    public Duration maxInterval() {
        return maxInterval;
    }

    public Consumer<? super T> onProgress() {
        return onProgress == null ? ignored -> {
        } : onProgress;
    }
}
