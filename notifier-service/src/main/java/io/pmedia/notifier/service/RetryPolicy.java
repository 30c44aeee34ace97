package io.pmedia.notifier.service;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.pmedia.notifier.config.NotifierConfig;

/**
 * When the next attempt of a failed delivery happens: the configured schedule (by default Svix's: immediately, 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) spread by a random jitter, and never earlier than the endpoint's own
 * {@code Retry-After} (capped, so an endpoint cannot park a delivery forever).
 */
@ApplicationScoped
public class RetryPolicy {

    private final List<Duration> schedule;
    private final double jitter;
    private final Duration maxRetryAfter;

    @Inject
    public RetryPolicy(NotifierConfig config) {
        this(config.retrySchedule(), config.retryJitter(), config.maxRetryAfter());
    }

    public RetryPolicy(List<Duration> schedule, double jitter, Duration maxRetryAfter) {
        if (schedule.isEmpty()) {
            throw new IllegalArgumentException("pmedia.webhooks.retry-schedule needs at least one entry");
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("pmedia.webhooks.retry-jitter must be in [0, 1)");
        }
        this.schedule = List.copyOf(schedule);
        this.jitter = jitter;
        this.maxRetryAfter = maxRetryAfter;
    }

    /** How many attempts the schedule allows in all. */
    public int maxAttempts() {
        return schedule.size();
    }

    /**
     * The wait before the next attempt after {@code attemptsMade} failed ones, or empty when the schedule is used up.
     *
     * @param retryAfter what the endpoint asked for, or null
     */
    public Optional<Duration> nextDelay(int attemptsMade, Duration retryAfter) {
        if (attemptsMade >= schedule.size()) {
            return Optional.empty();
        }
        Duration planned = jittered(schedule.get(attemptsMade));
        if (retryAfter != null && !retryAfter.isNegative()) {
            Duration asked = retryAfter.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter;
            if (asked.compareTo(planned) > 0) {
                return Optional.of(asked);
            }
        }
        return Optional.of(planned);
    }

    private Duration jittered(Duration delay) {
        if (jitter == 0 || delay.isZero()) {
            return delay;
        }
        double factor = 1 + ThreadLocalRandom.current().nextDouble(-jitter, jitter);
        return Duration.ofMillis(Math.round(delay.toMillis() * factor));
    }
}
