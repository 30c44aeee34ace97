package io.pmedia.gateway.service;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.gateway.config.GatewayConfig;
import io.quarkus.scheduler.Scheduled;

/**
 * Token buckets that slow down credential guessing and token storms on {@code /auth/token} and {@code /getToken}:
 * per presented client id (all attempts, and failed ones more strictly) and per source address. Kept in memory,
 * so each gateway replica limits on its own (documented in docs/security.md).
 */
@ApplicationScoped
public class RateLimiter {

    private static final class Bucket {
        private final double capacity;
        private final double perNano;
        private double tokens;
        private long updated;

        Bucket(double capacity, double perSecond, long now) {
            this.capacity = capacity;
            this.perNano = perSecond / 1e9;
            this.tokens = capacity;
            this.updated = now;
        }

        synchronized long take(long now) {
            refill(now);
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perNano);
        }

        synchronized long peek(long now) {
            refill(now);
            return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / perNano);
        }

        synchronized boolean full(long now) {
            refill(now);
            return tokens >= capacity;
        }

        private void refill(long now) {
            tokens = Math.min(capacity, tokens + (now - updated) * perNano);
            updated = now;
        }
    }

    private final GatewayConfig.RateLimit config;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimiter(GatewayConfig config) {
        this.config = config.gateway().rateLimit();
    }

    /**
     * Counts one attempt by {@code clientId} from {@code address}. Returns how long to wait when a limit is hit,
     * including when earlier failures of this client id exhausted its failure budget.
     */
    public Optional<Duration> attempt(String clientId, String address) {
        long now = System.nanoTime();
        long wait = bucket("ip:" + address, config.perAddressBurst(), config.perAddressPerSecond(), now).take(now);
        if (wait == 0 && clientId != null) {
            wait = bucket("client:" + clientId, config.perClientBurst(), config.perClientPerSecond(), now).take(now);
            if (wait == 0) {
                wait = bucket("fail:" + clientId, config.failuresBurst(), config.failuresPerSecond(), now).peek(now);
            }
        }
        return wait == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(wait));
    }

    /** Counts a failed attempt (wrong or unknown credentials) against the presented client id. */
    public void failed(String clientId) {
        if (clientId != null) {
            long now = System.nanoTime();
            bucket("fail:" + clientId, config.failuresBurst(), config.failuresPerSecond(), now).take(now);
        }
    }

    @Scheduled(every = "5m")
    void evictIdle() {
        long now = System.nanoTime();
        buckets.values().removeIf(bucket -> bucket.full(now));
    }

    private Bucket bucket(String key, int burst, double perSecond, long now) {
        String bounded = key.length() > 200 ? key.substring(0, 200) : key;
        return buckets.computeIfAbsent(bounded, ignored -> new Bucket(burst, perSecond, now));
    }
}
