package io.pmedia.gateway.service;

import java.time.Duration;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.limits.TokenBuckets;
import io.pmedia.gateway.config.GatewayConfig;
import io.quarkus.scheduler.Scheduled;

/**
 * The budget of a source address on the share pages ({@code /v/}): a token bucket per address on this replica
 * ({@link TokenBuckets}), checked in memory on the request's thread. One address's flood gets 429; other viewers, and
 * the vendor API on its own budget, go on (docs/sharing.md).
 */
@ApplicationScoped
public class ViewerLimits {

    private final TokenBuckets buckets;

    public ViewerLimits(GatewayConfig config) {
        GatewayConfig.ViewerLimits limits = config.gateway().viewerLimits();
        this.buckets = new TokenBuckets(limits.burst(), limits.perSecond());
    }

    /** Counts one call from {@code address}; how long to wait when its budget is spent. */
    public Optional<Duration> take(String address) {
        return buckets.take(address);
    }

    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetIdle() {
        buckets.forgetFull();
    }
}
