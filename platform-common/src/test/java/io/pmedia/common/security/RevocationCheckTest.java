package io.pmedia.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.smallrye.mutiny.Uni;

/** The revocation policy: cache time, 401 for a deleted client, stale-if-error for 60 s, then 503. */
class RevocationCheckTest {

    private static final RevocationConfig CONFIG = new RevocationConfig() {
        @Override
        public boolean enabled() {
            return true;
        }

        @Override
        public Duration cacheTtl() {
            return Duration.ofSeconds(2);
        }

        @Override
        public Duration staleIfError() {
            return Duration.ofSeconds(60);
        }

        @Override
        public Duration retryAfter() {
            return Duration.ofSeconds(5);
        }
    };

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger calls = new AtomicInteger();
    /** What the gateway answers: true (204), false (404), or null (it cannot be reached). */
    private final AtomicReference<Boolean> gateway = new AtomicReference<>(true);
    private final RevocationCheck check = new RevocationCheck(clientId -> {
        calls.incrementAndGet();
        Boolean answer = gateway.get();
        return answer == null
                ? Uni.createFrom().failure(new IllegalStateException("connection refused"))
                : Uni.createFrom().item(answer);
    }, CONFIG, now::get);
    private final UUID client = UUID.randomUUID();

    @Test
    void anActiveClientPassesAndIsAskedAboutOncePerCacheTime() {
        passes();
        passes();
        later(Duration.ofMillis(1999));
        passes();
        assertThat(calls).hasValue(1);

        later(Duration.ofMillis(1));
        passes();
        assertThat(calls).hasValue(2);
    }

    @Test
    void aDeletedClientIsRefusedOnceTheCachedAnswerIsOlderThanTheCacheTime() {
        passes();
        gateway.set(false);
        later(Duration.ofSeconds(2));

        assertThat(refusal().code()).isEqualTo(ErrorCode.UNAUTHORIZED);
        assertThat(refusal().getMessage()).isEqualTo("invalid or expired bearer token");
    }

    @Test
    void whileTheGatewayIsDownAClientConfirmedWithinTheLastMinutePasses() {
        passes();
        gateway.set(null);

        later(Duration.ofSeconds(59));
        passes();

        later(Duration.ofSeconds(1));
        ApiException unavailable = refusal();
        assertThat(unavailable.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
        assertThat(unavailable.retryAfter()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void whileTheGatewayIsDownAClientNeverConfirmedGets503() {
        gateway.set(null);

        assertThat(refusal().code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    }

    @Test
    void aDeletedClientIsNotLetThroughWhenTheGatewayFailsAfterwards() {
        passes();
        later(Duration.ofSeconds(2));
        gateway.set(false);
        refusal();
        later(Duration.ofSeconds(2));
        gateway.set(null);

        assertThat(refusal().code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    }

    private void passes() {
        check.requireActive(client).await().indefinitely();
    }

    private ApiException refusal() {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        assertThatThrownBy(() -> check.requireActive(client).await().indefinitely())
                .isInstanceOfSatisfying(ApiException.class, failure::set);
        return (ApiException) failure.get();
    }

    private void later(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
