package io.pmedia.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The flood of {@link FloodScenario}, as a process of its own that the scenario runs at a lower CPU priority: a flood
 * comes from other machines, and on a two-core machine the generator's own work would otherwise be what slows the
 * other vendor down. Sends TOTAL GETs of TARGET with TOKEN, evenly over SECONDS; prints {@code go} when it starts, then
 * one line: {@code ok limited withoutRetryAfter failed seconds}. JDK classes only, so it runs as a single source file.
 */
public final class FloodGenerator {

    private FloodGenerator() {
    }

    public static void main(String[] args) throws Exception {
        URI target = URI.create(args[0]);
        String token = args[1];
        int total = Integer.parseInt(args[2]);
        Duration length = Duration.ofSeconds(Long.parseLong(args[3]));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(target).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(10)).GET().build();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        AtomicInteger withoutRetryAfter = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Semaphore inFlight = new Semaphore(256);
        long interval = length.toNanos() / total;
        System.out.println("go");
        System.out.flush();
        long start = System.nanoTime();
        for (int i = 0; i < total; i++) {
            LockSupport.parkNanos(start + i * interval - System.nanoTime());
            inFlight.acquire();
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                count(response, error, ok, limited, withoutRetryAfter, failed);
                inFlight.release(); // after counting: the totals are read once every permit is back
            });
        }
        inFlight.acquire(256);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%d %d %d %d %.3f%n", ok.get(), limited.get(), withoutRetryAfter.get(),
                failed.get(), seconds);
    }

    private static void count(HttpResponse<Void> response, Throwable error, AtomicInteger ok, AtomicInteger limited,
            AtomicInteger withoutRetryAfter, AtomicInteger failed) {
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
    }
}
