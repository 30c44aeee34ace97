package io.pmedia.common.limits;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.local.LocalBucket;

/**
 * A budget per key (a source address, a share page and address) in this replica's memory: a Bucket4j token bucket
 * each, {@code burst} calls at once, then {@code perSecond} refilled greedily. Checked on the caller's thread, without
 * I/O. The owner forgets full buckets on a schedule ({@link #forgetFull()}), so memory follows the keys of the last
 * minutes, not of all time.
 */
public final class TokenBuckets {

    private final int burst;
    private final double perSecond;
    private final Map<String, LocalBucket> buckets = new ConcurrentHashMap<>();

    public TokenBuckets(int burst, double perSecond) {
        this.burst = burst;
        this.perSecond = perSecond;
    }

    /** Counts one call of {@code key}: empty when it may go on, else how long to wait for the next token. */
    public Optional<Duration> take(String key) {
        LocalBucket bucket = buckets.computeIfAbsent(key, ignored -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(burst)
                        .refillGreedy(1, Duration.ofNanos(Math.max(1, Math.round(1e9 / perSecond))))
                        .build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    /** Drops the buckets that are full again: a key that comes back starts with a full bucket, as it would have. */
    public void forgetFull() {
        buckets.values().removeIf(bucket -> bucket.getAvailableTokens() >= burst);
    }
}
