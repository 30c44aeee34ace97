package io.pmedia.common.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;

class SingleFlightCacheTest {

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger loads = new AtomicInteger();

    @Test
    void concurrentMissesShareOneLoad() {
        CompletableFuture<String> pending = new CompletableFuture<>();
        SingleFlightCache<String, String> cache = new SingleFlightCache<>(key -> {
            loads.incrementAndGet();
            return Uni.createFrom().completionStage(pending);
        }, Duration.ofSeconds(2), 10, now::get);

        List<CompletableFuture<String>> callers = IntStream.range(0, 5)
                .mapToObj(i -> cache.get("a", Duration.ofSeconds(2)).subscribeAsCompletionStage())
                .toList();
        pending.complete("answer");

        assertThat(callers).allSatisfy(caller -> assertThat(caller).isCompletedWithValue("answer"));
        assertThat(loads).hasValue(1);
    }

    @Test
    void anAnswerIsReusedForTheAgeACallerAcceptsAndNoLonger() {
        SingleFlightCache<String, Integer> cache = counting();

        assertThat(cache.get("a", Duration.ofSeconds(2)).await().indefinitely()).isEqualTo(1);
        now.addAndGet(Duration.ofMillis(1999).toNanos());
        assertThat(cache.get("a", Duration.ofSeconds(2)).await().indefinitely()).isEqualTo(1);
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(cache.get("a", Duration.ofSeconds(2)).await().indefinitely()).isEqualTo(2);
        assertThat(cache.get("b", Duration.ofSeconds(2)).await().indefinitely()).isEqualTo(3);
    }

    @Test
    void aFailedLoadIsNotKeptAndTheLastAnswerStaysReadable() {
        AtomicInteger calls = new AtomicInteger();
        SingleFlightCache<String, String> cache = new SingleFlightCache<>(key -> calls.incrementAndGet() == 1
                ? Uni.createFrom().item("first")
                : Uni.createFrom().failure(new IllegalStateException("down")), Duration.ofSeconds(60), 10, now::get);
        cache.get("a", Duration.ofSeconds(2)).await().indefinitely();
        now.addAndGet(Duration.ofSeconds(3).toNanos());

        assertThatThrownBy(() -> cache.get("a", Duration.ofSeconds(2)).await().indefinitely())
                .hasMessage("down");
        assertThatThrownBy(() -> cache.get("a", Duration.ofSeconds(2)).await().indefinitely())
                .hasMessage("down");

        assertThat(calls).hasValue(3);
        assertThat(cache.lastLoaded("a", Duration.ofSeconds(60))).isEqualTo("first");
        assertThat(cache.lastLoaded("a", Duration.ofSeconds(3))).isNull();
    }

    @Test
    void refreshAsksNowAndKeepsTheAnswer() {
        SingleFlightCache<String, Integer> cache = counting();
        cache.get("a", Duration.ofSeconds(2)).await().indefinitely();

        assertThat(cache.refresh("a").await().indefinitely()).isEqualTo(2);
        assertThat(cache.get("a", Duration.ofSeconds(2)).await().indefinitely()).isEqualTo(2);
    }

    @Test
    void beyondItsSizeTheCacheDropsOldAnswersFirst() {
        SingleFlightCache<String, Integer> cache = counting();
        cache.get("old", Duration.ofSeconds(2)).await().indefinitely();
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        for (int i = 0; i < 9; i++) {
            cache.get("k" + i, Duration.ofSeconds(2)).await().indefinitely();
        }

        cache.get("new", Duration.ofSeconds(2)).await().indefinitely();

        assertThat(cache.lastLoaded("old", Duration.ofDays(1))).isNull();
        assertThat(cache.lastLoaded("k0", Duration.ofDays(1))).isNotNull();
        assertThat(cache.lastLoaded("new", Duration.ofDays(1))).isNotNull();
    }

    private SingleFlightCache<String, Integer> counting() {
        return new SingleFlightCache<>(key -> Uni.createFrom().item(loads.incrementAndGet()), Duration.ofSeconds(2),
                10, now::get);
    }
}
