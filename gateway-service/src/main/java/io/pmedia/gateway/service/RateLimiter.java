package io.pmedia.gateway.service;

import java.time.Duration;
import java.util.Optional;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import io.pmedia.common.error.Ids;
import io.pmedia.gateway.config.GatewayConfig;
import io.quarkus.scheduler.Scheduled;

/**
 * Token buckets that slow down credential guessing and token storms on {@code /auth/token} and {@code /getToken},
 * shared by every gateway replica: the buckets live in PostgreSQL (Bucket4j's proxy manager, a row per bucket locked
 * for the moment of one decision), so a limit holds for the cluster, not per replica.
 * <p>
 * The rule that keeps a vendor usable under attack: failures are counted per (client id, source address) and per
 * source address, never per client id alone, and a client id's own budget counts only tokens actually issued (which
 * need the secret). So guessing at a client id from one address slows down that address, and a correct secret from
 * an address that has not failed is never refused because of failures elsewhere. Blocking (JDBC): call it from a
 * worker thread.
 */
@ApplicationScoped
public class RateLimiter {

    private static final Logger LOG = Logger.getLogger(RateLimiter.class);

    private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;
    private final BucketConfiguration perAddress;
    private final BucketConfiguration failuresPerAddress;
    private final BucketConfiguration failuresPerClientAndAddress;
    private final BucketConfiguration issuedPerClient;

    @Inject
    public RateLimiter(DataSource dataSource, GatewayConfig config) {
        this(dataSource, config.gateway().rateLimit());
    }

    public RateLimiter(DataSource dataSource, GatewayConfig.RateLimit limits) {
        this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("rate_limit_bucket")
                .idColumn("id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                // A bucket's row may go once it has been full again for a minute: it would start full anyway.
                .expirationAfterWrite(
                        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofMinutes(1)))
                .build();
        this.perAddress = bucket(limits.perAddressBurst(), limits.perAddressPerSecond());
        this.failuresPerAddress = bucket(limits.failuresPerAddressBurst(), limits.failuresPerAddressPerSecond());
        this.failuresPerClientAndAddress = bucket(limits.failuresBurst(), limits.failuresPerSecond());
        this.issuedPerClient = bucket(limits.perClientBurst(), limits.perClientPerSecond());
    }

    /**
     * Counts one attempt by {@code clientId} from {@code address} and says how long to wait when a limit is hit: the
     * address made too many attempts, or too many failed ones (for any client id, or for this one).
     */
    public Optional<Duration> attempt(String clientId, String address) {
        Optional<Duration> wait = take(addressKey(address), perAddress);
        if (wait.isEmpty()) {
            wait = peek("fail-addr:" + addressKey(address), failuresPerAddress);
        }
        if (wait.isEmpty()) {
            wait = peek(failureKey(clientId, address), failuresPerClientAndAddress);
        }
        return wait;
    }

    /** Counts a failed attempt (wrong or unknown credentials) against the address and the (client id, address). */
    public void failed(String clientId, String address) {
        take("fail-addr:" + addressKey(address), failuresPerAddress);
        take(failureKey(clientId, address), failuresPerClientAndAddress);
    }

    /** Counts a token issued to {@code clientId}; how long to wait when the client asks for tokens too often. */
    public Optional<Duration> issued(String clientId) {
        return take("issued:" + Ids.canonical(clientId), issuedPerClient);
    }

    /** Deletes the rows of buckets that have been full for a while (any replica may do it; rows are skip-locked). */
    @Scheduled(every = "1m", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void removeExpired() {
        try {
            int removed;
            do {
                removed = buckets.removeExpired(1000);
            } while (removed == 1000);
        } catch (RuntimeException e) {
            LOG.warnf("expired rate-limit buckets not removed this time: %s", e.getMessage());
        }
    }

    private Optional<Duration> take(String key, BucketConfiguration configuration) {
        ConsumptionProbe probe = proxy(key, configuration).tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    private Optional<Duration> peek(String key, BucketConfiguration configuration) {
        var estimate = proxy(key, configuration).estimateAbilityToConsume(1);
        return estimate.canBeConsumed()
                ? Optional.empty()
                : Optional.of(Duration.ofNanos(estimate.getNanosToWaitForRefill()));
    }

    private BucketProxy proxy(String key, BucketConfiguration configuration) {
        return buckets.builder().build(key, () -> configuration);
    }

    private static String addressKey(String address) {
        return "addr:" + (address == null ? "" : address.length() > 64 ? address.substring(0, 64) : address);
    }

    private static String failureKey(String clientId, String address) {
        return "fail:" + Ids.canonical(clientId) + "|" + addressKey(address);
    }

    private static BucketConfiguration bucket(int burst, double perSecond) {
        Duration refillEvery = Duration.ofNanos(Math.max(1, Math.round(1e9 / perSecond)));
        return BucketConfiguration.builder()
                .addLimit(limit -> limit.capacity(burst).refillGreedy(1, refillEvery))
                .build();
    }
}
