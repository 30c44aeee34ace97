import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop beacon load: CONNECTIONS threads each POST a view beacon (a JSON text, as navigator.sendBeacon sends it,
 * each with a page-view id of its own, so every accepted beacon is one more view) to URL over a kept-alive
 * HTTP/1.1 connection, back to back, for SECONDS after WARMUP seconds. Prints "beacons/s p50 p90 p99 accepted errors"
 * (accepted: 2xx answers of the whole run, warm-up included; what the rollup must count).
 *
 * <pre>
 *   java bench/engagement/BeaconLoad.java URL SECONDS CONNECTIONS [WARMUP]
 * </pre>
 */
public class BeaconLoad {

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long seconds = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        long warmup = args.length > 3 ? Long.parseLong(args[3]) : 3;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long warmEnd = System.nanoTime() + Duration.ofSeconds(warmup).toNanos();
        long end = warmEnd + Duration.ofSeconds(seconds).toNanos();
        AtomicLong errors = new AtomicLong();
        AtomicLong accepted = new AtomicLong();
        List<Future<long[]>> results = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            results.add(pool.submit(() -> {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5)).build();
                long[] latencies = new long[1 << 16];
                int n = 0;
                while (true) {
                    long start = System.nanoTime();
                    if (start > end) {
                        break;
                    }
                    String body = "{\"type\":\"view\",\"session\":\"" + UUID.randomUUID().toString().replace("-", "")
                            + "\"}";
                    HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "text/plain;charset=UTF-8")
                            .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                    try {
                        HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                        if (response.statusCode() / 100 == 2) {
                            accepted.incrementAndGet();
                        } else {
                            errors.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    long done = System.nanoTime();
                    if (start >= warmEnd && done <= end) {
                        if (n == latencies.length) {
                            latencies = Arrays.copyOf(latencies, n * 2);
                        }
                        latencies[n++] = done - start;
                    }
                }
                return Arrays.copyOf(latencies, n);
            }));
        }
        long[] all = new long[0];
        for (Future<long[]> result : results) {
            long[] part = result.get();
            long[] merged = Arrays.copyOf(all, all.length + part.length);
            System.arraycopy(part, 0, merged, all.length, part.length);
            all = merged;
        }
        pool.shutdown();
        Arrays.sort(all);
        System.out.printf("%.0f %.2f %.2f %.2f %d %d%n", all.length / (double) seconds, ms(all, 0.50),
                ms(all, 0.90), ms(all, 0.99), accepted.get(), errors.get());
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1e6;
    }
}
