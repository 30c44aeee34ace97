package io.pmedia.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.config.GatewayConfig;
import io.pmedia.gateway.service.RateLimiter;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The buckets themselves, kept in PostgreSQL: per source address, failures per (client id, address) and per address,
 * tokens issued per client id. Every test uses addresses and ids of its own (the table outlives a test run).
 */
@QuarkusTest
class RateLimiterTest {

    /**
     * The default bursts of {@link GatewayConfig.RateLimit}, whatever the test profile configures, with refills too
     * slow to matter while a test runs: the counts below must not depend on how fast the machine is.
     */
    record Limits(int perClientBurst, double perClientPerSecond, int failuresBurst, double failuresPerSecond,
            int failuresPerAddressBurst, double failuresPerAddressPerSecond, int perAddressBurst,
            double perAddressPerSecond) implements GatewayConfig.RateLimit {
    }

    static final Limits DEFAULTS = new Limits(60, 0.001, 10, 0.001, 30, 0.001, 300, 0.001);

    @Inject
    DataSource dataSource;

    RateLimiter limiter() {
        return new RateLimiter(dataSource, DEFAULTS);
    }

    static String address() {
        UUID random = UUID.randomUUID();
        return "2001:db8:" + Long.toHexString(random.getMostSignificantBits() & 0xffff) + "::"
                + Long.toHexString(random.getLeastSignificantBits() & 0xffff);
    }

    @Test
    void oneAddressIsLimitedWhateverClientIdsItUses() {
        RateLimiter limiter = limiter();
        String address = address();
        int allowed = 0;
        while (limiter.attempt(UUID.randomUUID().toString(), address).isEmpty() && allowed < 1000) {
            allowed++;
        }
        assertThat(allowed).isEqualTo(300);
        assertThat(limiter.attempt(UUID.randomUUID().toString(), address)).hasValueSatisfying(
                wait -> assertThat(wait).isPositive());
        assertThat(limiter.attempt(UUID.randomUUID().toString(), address())).isEmpty();
    }

    @Test
    void failuresForAClientIdFromOneAddressDoNotLockOutAnotherAddress() {
        RateLimiter limiter = limiter();
        String victim = UUID.randomUUID().toString();
        String attacker = address();
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.attempt(victim, attacker)).isEmpty();
            limiter.failed(victim, attacker);
        }
        assertThat(limiter.attempt(victim, attacker)).isPresent();

        String vendorsOwnAddress = address();
        assertThat(limiter.attempt(victim, vendorsOwnAddress)).isEmpty();
        assertThat(limiter.issued(victim)).isEmpty();
    }

    @Test
    void failuresFromOneAddressAreLimitedAcrossClientIds() {
        RateLimiter limiter = limiter();
        String address = address();
        int failures = 0;
        while (limiter.attempt(UUID.randomUUID().toString(), address).isEmpty() && failures < 100) {
            limiter.failed(UUID.randomUUID().toString(), address);
            failures++;
        }
        assertThat(failures).isEqualTo(30);
        assertThat(limiter.attempt(UUID.randomUUID().toString(), address())).isEmpty();
    }

    @Test
    void tokensIssuedToOneClientIdAreLimitedAcrossAddresses() {
        RateLimiter limiter = limiter();
        String clientId = UUID.randomUUID().toString();
        int issued = 0;
        while (limiter.issued(clientId).isEmpty() && issued < 1000) {
            issued++;
        }
        assertThat(issued).isEqualTo(60);
    }

    @Test
    void aUuidInAnotherCaseIsTheSameClientId() {
        RateLimiter limiter = limiter();
        String clientId = UUID.randomUUID().toString();
        String address = address();
        for (int i = 0; i < 10; i++) {
            limiter.failed(i % 2 == 0 ? clientId : clientId.toUpperCase(), address);
        }
        assertThat(limiter.attempt(clientId, address)).isPresent();
        assertThat(limiter.attempt(clientId.toUpperCase(), address)).isPresent();
    }

    @Test
    void replicasShareTheBuckets() {
        String address = address();
        RateLimiter one = limiter();
        RateLimiter other = limiter();
        for (int i = 0; i < 15; i++) {
            one.failed(UUID.randomUUID().toString(), address);
            other.failed(UUID.randomUUID().toString(), address);
        }
        Optional<Duration> wait = new RateLimiter(dataSource, DEFAULTS).attempt(UUID.randomUUID().toString(), address);
        assertThat(wait).isPresent();
    }
}
