package io.pmedia.notifier.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final List<Duration> SVIX = List.of(Duration.ZERO, Duration.ofSeconds(5), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
            Duration.ofHours(10));

    @Test
    void followsTheScheduleAndEndsAfterItsLastEntry() {
        RetryPolicy policy = new RetryPolicy(SVIX, 0, Duration.ofHours(10));
        assertThat(policy.maxAttempts()).isEqualTo(8);
        assertThat(policy.nextDelay(1, null)).contains(Duration.ofSeconds(5));
        assertThat(policy.nextDelay(2, null)).contains(Duration.ofMinutes(5));
        assertThat(policy.nextDelay(7, null)).contains(Duration.ofHours(10));
        assertThat(policy.nextDelay(8, null)).isEmpty();
    }

    @Test
    void jitterSpreadsEachDelayWithinItsBounds() {
        RetryPolicy policy = new RetryPolicy(SVIX, 0.2, Duration.ofHours(10));
        for (int i = 0; i < 200; i++) {
            Duration delay = policy.nextDelay(3, null).orElseThrow();
            assertThat(delay).isBetween(Duration.ofMinutes(24), Duration.ofMinutes(36));
        }
    }

    @Test
    void retryAfterIsHonouredWhenLongerThanTheScheduleAndCapped() {
        RetryPolicy policy = new RetryPolicy(SVIX, 0, Duration.ofHours(1));
        assertThat(policy.nextDelay(1, Duration.ofSeconds(30))).contains(Duration.ofSeconds(30));
        assertThat(policy.nextDelay(1, Duration.ofSeconds(2))).contains(Duration.ofSeconds(5));
        assertThat(policy.nextDelay(1, Duration.ofDays(3))).contains(Duration.ofHours(1));
        assertThat(policy.nextDelay(8, Duration.ofSeconds(1))).isEmpty();
    }
}
