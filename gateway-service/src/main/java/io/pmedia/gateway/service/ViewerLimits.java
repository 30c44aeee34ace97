package io.pmedia.gateway.service;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.local.LocalBucket;
import io.pmedia.gateway.config.GatewayConfig;
import io.quarkus.scheduler.Scheduled;

/**
 * The budget of a source address on the share pages ({@code /v/}): a Bucket4j bucket per address on this replica,
 * checked in memory on the request's thread. One address's flood gets 429; other viewers, and the vendor API on its
 * own budget, go on (docs/sharing.md).
 */
@ApplicationScoped
public class ViewerLimits {

    private final GatewayConfig.ViewerLimits limits;
    private final Map<String, LocalBucket> buckets = new ConcurrentHashMap<>();

    public ViewerLimits(GatewayConfig config) {
        this.limits = config.gateway().viewerLimits();
    }

    /** Counts one call from {@code address}; how long to wait when its budget is spent. */
    public Optional<Duration> take(String address) {
        LocalBucket bucket = buckets.computeIfAbsent(address, ignored -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(limits.burst())
                        .refillGreedy(1, Duration.ofNanos(Math.max(1, Math.round(1e9 / limits.perSecond()))))
                        .build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    /** Full buckets are forgotten: memory grows with the addresses of the last minutes, not of all time. */
    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetIdle() {
        buckets.values().removeIf(bucket -> bucket.getAvailableTokens() >= limits.burst());
    }
}
