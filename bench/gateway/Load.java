import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop load generator: CONNECTIONS threads, each sending GET URL with a bearer token over its own keep-alive
 * HTTP/1.1 connection, back to back, for SECONDS after WARMUP seconds. Prints "requests/s p50 p90 p99 errors".
 *
 * <pre>
 *   java bench/gateway/Load.java URL TOKEN SECONDS CONNECTIONS [WARMUP]
 * </pre>
 */
public class Load {

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        String token = args[1];
        long seconds = Long.parseLong(args[2]);
        int connections = Integer.parseInt(args[3]);
        long warmup = args.length > 4 ? Long.parseLong(args[4]) : 3;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long warmEnd = System.nanoTime() + Duration.ofSeconds(warmup).toNanos();
        long end = warmEnd + Duration.ofSeconds(seconds).toNanos();
        AtomicLong errors = new AtomicLong();
        List<Future<long[]>> results = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            results.add(pool.submit(() -> {
                // one client per thread: its own connection, kept alive
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5)).build();
                HttpRequest request = HttpRequest.newBuilder(url).header("Authorization", "Bearer " + token)
                        .timeout(Duration.ofSeconds(10)).GET().build();
                long[] latencies = new long[1 << 16];
                int n = 0;
                while (true) {
                    long start = System.nanoTime();
                    if (start > end) {
                        break;
                    }
                    try {
                        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        if (response.statusCode() != 200) {
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
        System.out.printf("%.0f %.2f %.2f %.2f %d%n", all.length / (double) seconds, ms(all, 0.50), ms(all, 0.90),
                ms(all, 0.99), errors.get());
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1e6;
    }
}
