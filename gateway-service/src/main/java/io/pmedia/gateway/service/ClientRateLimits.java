package io.pmedia.gateway.service;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TokensInheritanceStrategy;
import io.github.bucket4j.local.LocalBucket;
import io.pmedia.gateway.config.GatewayConfig;
import io.pmedia.gateway.repository.GatewayReplicas;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * A vendor's budget of API calls, so that one vendor's flood gets 429 and leaves the platform to the others: every
 * forwarded call counts, and calls that start work (a render, a task, a try-on) count again against a smaller budget.
 * <p>
 * The limits are for the cluster. Each replica enforces its share, the limit divided by the replicas alive (a
 * heartbeat row per replica in PostgreSQL, renewed every few seconds), in local Bucket4j buckets: the check is a
 * compare-and-set in memory on the request's own thread, never a database round trip on the gateway's hot path. With
 * the load balancer spreading a vendor's calls, the shares add up to the limit (docs/security.md).
 */
@ApplicationScoped
public class ClientRateLimits {

    private static final Logger LOG = Logger.getLogger(ClientRateLimits.class);
    private static final Duration ALIVE_WITHIN = Duration.ofSeconds(15);

    private final GatewayConfig.ApiLimits limits;
    private final GatewayReplicas replicas;
    private final UUID self = UUID.randomUUID();
    private final Map<UUID, LocalBucket> calls = new ConcurrentHashMap<>();
    private final Map<UUID, LocalBucket> creations = new ConcurrentHashMap<>();
    private volatile int alive = 1;

    public ClientRateLimits(GatewayConfig config, GatewayReplicas replicas) {
        this.limits = config.gateway().apiLimits();
        this.replicas = replicas;
    }

    /** Counts one call of {@code client}; how long to wait when its budget is spent. */
    public Optional<Duration> take(UUID client, boolean startsWork) {
        if (!limits.enabled()) {
            return Optional.empty();
        }
        Optional<Duration> wait = take(calls, client, limits.callsBurst(), limits.callsPerSecond());
        if (wait.isEmpty() && startsWork) {
            wait = take(creations, client, limits.creationsBurst(), limits.creationsPerSecond());
        }
        return wait;
    }

    /** How many replicas share the limits now (this one included). */
    public int replicas() {
        return alive;
    }

    @Scheduled(every = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> heartbeat() {
        return replicas.renewAndCount(self, ALIVE_WITHIN)
                .invoke(this::share)
                .onFailure().invoke(failure -> LOG.debugf("replica heartbeat failed (keeping %d): %s", alive,
                        failure.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    @Scheduled(every = "10m", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> forgetGoneReplicasAndIdleBuckets() {
        calls.values().removeIf(bucket -> bucket.getAvailableTokens() >= capacity(limits.callsBurst()));
        creations.values().removeIf(bucket -> bucket.getAvailableTokens() >= capacity(limits.creationsBurst()));
        return replicas.forgetGone().onFailure().recoverWithNull();
    }

    @PreDestroy
    void leave() {
        replicas.leave(self).onFailure().recoverWithNull().await().atMost(Duration.ofSeconds(2));
    }

    /** A new replica count: every bucket gets its new share, keeping the fraction of tokens it had left. */
    void share(int count) {
        int now = Math.max(1, count);
        if (now == alive) {
            return;
        }
        alive = now;
        LOG.infof("%d gateway replicas share the vendors' API rate limits", now);
        calls.values().forEach(bucket -> bucket.replaceConfiguration(
                configuration(limits.callsBurst(), limits.callsPerSecond()), TokensInheritanceStrategy.PROPORTIONALLY));
        creations.values().forEach(bucket -> bucket.replaceConfiguration(
                configuration(limits.creationsBurst(), limits.creationsPerSecond()),
                TokensInheritanceStrategy.PROPORTIONALLY));
    }

    private Optional<Duration> take(Map<UUID, LocalBucket> buckets, UUID client, int burst, double perSecond) {
        LocalBucket bucket = buckets.computeIfAbsent(client,
                ignored -> Bucket.builder().addLimit(bandwidth(burst, perSecond)).build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    private BucketConfiguration configuration(int burst, double perSecond) {
        return BucketConfiguration.builder().addLimit(bandwidth(burst, perSecond)).build();
    }

    private Bandwidth bandwidth(int burst, double perSecond) {
        double share = perSecond / alive;
        return Bandwidth.builder().capacity(capacity(burst))
                .refillGreedy(1, Duration.ofNanos(Math.max(1, Math.round(1e9 / share)))).build();
    }

    private long capacity(int burst) {
        return Math.max(1, burst / alive);
    }
}
