package io.pmedia.notifier.config;

import java.time.Duration;
import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** How webhooks are delivered: schedule, limits and timings (docs/webhooks.md lists them for operators). */
@ConfigMapping(prefix = "pmedia.webhooks")
public interface NotifierConfig {

    /**
     * The delay before each attempt, the first included; its length is the number of attempts. Svix's schedule:
     * immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27 hours in all).
     */
    @WithDefault("0s,5s,5m,30m,2h,5h,10h,10h")
    List<Duration> retrySchedule();

    /** Each delay is spread by up to this fraction either way, so retries of many deliveries do not align. */
    @WithDefault("0.2")
    double retryJitter();

    /** The longest {@code Retry-After} honoured; a longer one is cut to this. */
    @WithDefault("10h")
    Duration maxRetryAfter();

    /** How long an endpoint has to answer one attempt completely. */
    @WithDefault("15s")
    Duration timeout();

    /** How often each replica looks for due retries (new deliveries are dispatched at once, not polled). */
    @WithDefault("1s")
    Duration pollInterval();

    /** Most due deliveries one poll claims. */
    @WithDefault("200")
    int claimBatch();

    /**
     * How long a claimed delivery belongs to the replica that claimed it. A replica that dies mid-attempt leaves the
     * delivery to others once this has passed. Longer than {@link #timeout()}.
     */
    @WithDefault("60s")
    Duration lease();

    /** How long a client's webhook URL and secrets are reused before the gateway is asked again. */
    @WithDefault("2s")
    Duration registryCacheTtl();

    /** When the gateway cannot answer, a delivery waits this long (no attempt is used up). */
    @WithDefault("5s")
    Duration registryRetryDelay();

    /** How often the list of disabled endpoints (410 Gone) is re-read, for changes made by other replicas. */
    @WithDefault("10s")
    Duration disabledRefresh();

    Endpoint endpoint();

    @WithName("circuit-breaker")
    CircuitBreaker circuitBreaker();

    /** Per endpoint (URL) limits: one slow endpoint can use only its own share. */
    interface Endpoint {

        /** Requests in flight to one endpoint at most. */
        @WithDefault("16")
        int maxConcurrency();

        /** Deliveries waiting in memory for one endpoint; more wait in PostgreSQL and are claimed again later. */
        @WithDefault("1000")
        int maxQueue();

        /** How long a delivery that found the queue full waits before it is claimed again. */
        @WithDefault("2s")
        Duration overflowDelay();
    }

    /** Per endpoint breaker: after consecutive failures, attempts fail fast instead of waiting for timeouts. */
    interface CircuitBreaker {

        /** Consecutive failed attempts (timeouts, connection errors, 5xx) that open the breaker. */
        @WithDefault("5")
        int failureThreshold();

        /** How long an open breaker refuses before it lets one probe through. */
        @WithDefault("30s")
        Duration openFor();
    }
}
