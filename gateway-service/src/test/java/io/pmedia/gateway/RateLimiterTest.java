package io.pmedia.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.service.RateLimiter;
import io.quarkus.test.junit.QuarkusTest;

/** The buckets themselves: per source address too, with defaults from configuration. */
@QuarkusTest
class RateLimiterTest {

    @Inject
    RateLimiter limiter;

    @Test
    void oneAddressIsLimitedWhateverClientIdsItUses() {
        String address = "198.51.100." + (int) (Math.random() * 250);
        int allowed = 0;
        while (limiter.attempt(UUID.randomUUID().toString(), address).isEmpty() && allowed < 1000) {
            allowed++;
        }
        assertThat(allowed).isBetween(300, 310);
        assertThat(limiter.attempt(UUID.randomUUID().toString(), address)).hasValueSatisfying(
                wait -> assertThat(wait.toMillis()).isBetween(1L, 1000L));
        assertThat(limiter.attempt(UUID.randomUUID().toString(), "198.51.100.251")).isEmpty();
    }

    @Test
    void oneClientIdIsLimitedAcrossAddresses() {
        String clientId = UUID.randomUUID().toString();
        int allowed = 0;
        while (limiter.attempt(clientId, "192.0.2." + (allowed % 250)).isEmpty() && allowed < 1000) {
            allowed++;
        }
        assertThat(allowed).isBetween(60, 62);
    }
}
