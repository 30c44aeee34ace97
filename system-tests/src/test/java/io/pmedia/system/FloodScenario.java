package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Stack.Vendor;

/**
 * flood: one vendor sends far more than its API budget; it gets 429 with Retry-After, and another vendor calling at a
 * steady rate meanwhile sees its p99 latency stay within twice what it is with no flood.
 */
class FloodScenario {

    /** The flooding vendor's client, and the other vendor's own: they share no connection pool or selector thread. */
    static final HttpClient HTTP = client();
    static final HttpClient BYSTANDER = client();

    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @Test
    void aFloodingVendorIsThrottledAndTheOthersDoNotNotice() throws Exception {
        int total = Chaos.size(6_000, 50_000);
        Duration length = Chaos.size(Duration.ofSeconds(10), Duration.ofSeconds(60));
        Vendor flooding = Stack.onboard("chaos flood");
        Vendor other = Stack.onboard("chaos flood bystander");
        String floodTarget = Stack.gateway() + "/status/" + request(flooding);
        String otherTarget = Stack.gateway() + "/status/" + request(other);

        warmUp(other, otherTarget);
        List<Long> unloaded = steady(other, otherTarget, Duration.ofSeconds(Chaos.size(5, 15)));

        AtomicInteger ok = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        AtomicInteger withoutRetryAfter = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        CompletableFuture<List<Long>> during = CompletableFuture.supplyAsync(() -> steady(other, otherTarget,
                length.minusSeconds(2)));
        long interval = length.toNanos() / total;
        long start = System.nanoTime();
        Semaphore inFlight = new Semaphore(256);
        for (int i = 0; i < total; i++) {
            LockSupport.parkNanos(start + i * interval - System.nanoTime());
            inFlight.acquire();
            HTTP.sendAsync(get(flooding, floodTarget), HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, error) -> {
                        inFlight.release();
                        if (error != null) {
                            failed.incrementAndGet();
                        } else if (response.statusCode() == 429) {
                            limited.incrementAndGet();
                            if (response.headers().firstValue("Retry-After").isEmpty()) {
                                withoutRetryAfter.incrementAndGet();
                            }
                        } else if (response.statusCode() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    });
        }
        inFlight.acquire(256);
        double seconds = (System.nanoTime() - start) / 1e9;
        List<Long> loaded = during.get(2, TimeUnit.MINUTES);

        double unloadedP99 = p99(unloaded);
        double loadedP99 = p99(loaded);
        String line = Chaos.report("flood", total, ok.get() + limited.get(), 0, failed.get(), 0, 0,
                String.format(java.util.Locale.ROOT, "%.0f req/s for %.0f s: %d answered 200, %d answered 429; the "
                        + "other vendor's p99 %.1f ms unloaded, %.1f ms during the flood (x%.2f)", total / seconds,
                        seconds, ok.get(), limited.get(), unloadedP99, loadedP99, loadedP99 / unloadedP99));
        assertThat(limited.get()).as(line).isGreaterThan(total / 2);
        assertThat(withoutRetryAfter.get()).as(line).isZero();
        assertThat(failed.get()).as(line).isZero();
        assertThat(loaded).as("the other vendor was never refused").doesNotContain(-1L);
        assertThat(loadedP99).as(line).isLessThanOrEqualTo(2 * Math.max(unloadedP99, 5.0));
        Stack.delete(flooding);
        Stack.delete(other);
    }

    private static String request(Vendor vendor) {
        return vendor.json(Map.of("client-request-id", "flood-" + UUID.randomUUID(), "customer-id", "c", "user-id",
                "u", "use-case-id", "no-such-use-case", "data", Map.of())).post("/media/demo").then()
                .statusCode(200).extract().path("service-request-id");
    }

    private static HttpRequest get(Vendor vendor, String target) {
        return HttpRequest.newBuilder(URI.create(target)).header("Authorization", "Bearer " + vendor.token())
                .timeout(Duration.ofSeconds(10)).GET().build();
    }

    private static void warmUp(Vendor vendor, String target) throws Exception {
        for (int i = 0; i < 50; i++) {
            BYSTANDER.send(get(vendor, target), HttpResponse.BodyHandlers.discarding());
        }
    }

    /** Latencies (ms) of calls at 20 per second for {@code length}; -1 for a call that was not answered 200. */
    private static List<Long> steady(Vendor vendor, String target, Duration length) {
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + length.toNanos();
        while (System.nanoTime() < end) {
            long started = System.nanoTime();
            try {
                int status = BYSTANDER.send(get(vendor, target), HttpResponse.BodyHandlers.discarding()).statusCode();
                latencies.add(status == 200 ? (System.nanoTime() - started) / 1_000_000 : -1L);
            } catch (Exception e) {
                latencies.add(-1L);
            }
            LockSupport.parkNanos(started + 50_000_000L - System.nanoTime());
        }
        return latencies;
    }

    private static double p99(List<Long> latencies) {
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
    }
}
