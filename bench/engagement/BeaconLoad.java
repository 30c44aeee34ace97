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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Closed-loop beacon load: CONNECTIONS threads each POST a view beacon (a JSON text, as navigator.sendBeacon sends it)
 * to URL over a kept-alive HTTP/1.1 connection, back to back, for SECONDS after WARMUP seconds. A beacon counts only
 * with the view token of a page load (docs/sharing.md, "What counts"): given PAGE (the share page's URL), each thread
 * first loads the page PAGE_VIEWS times and sends its beacons with those tokens in turn, so the whole path (the token's
 * signature checked) runs on every beacon. Prints "beacons/s p50 p90 p99 accepted errors pageviews" (accepted: 2xx
 * answers of the whole run, warm-up included; pageviews: the page views they belong to, which the rollup must count,
 * as views or repeat views: every beacon of the run comes from one address).
 *
 * <pre>
 *   java bench/engagement/BeaconLoad.java URL SECONDS CONNECTIONS [WARMUP] [PAGE]
 * </pre>
 */
public class BeaconLoad {

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long seconds = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        long warmup = args.length > 3 ? Long.parseLong(args[3]) : 3;
        URI page = args.length > 4 ? URI.create(args[4]) : null;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long warmEnd = System.nanoTime() + Duration.ofSeconds(warmup).toNanos();
        long end = warmEnd + Duration.ofSeconds(seconds).toNanos();
        AtomicLong errors = new AtomicLong();
        AtomicLong accepted = new AtomicLong();
        AtomicLong pageViews = new AtomicLong();
        List<Future<long[]>> results = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            results.add(pool.submit(() -> {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5)).build();
                List<String> tokens = page == null ? List.of("") : tokens(client, page, pageViews);
                long[] latencies = new long[1 << 16];
                int n = 0;
                int sent = 0;
                while (true) {
                    long start = System.nanoTime();
                    if (start > end) {
                        break;
                    }
                    String token = tokens.get(sent++ % tokens.size());
                    String session = token.isEmpty() ? UUID.randomUUID().toString().replace("-", "")
                            : token.substring(0, token.indexOf('.'));
                    String body = "{\"type\":\"view\",\"session\":\"" + session + "\",\"token\":\"" + token + "\"}";
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
        System.out.printf("%.0f %.2f %.2f %.2f %d %d %d%n", all.length / (double) seconds, ms(all, 0.50),
                ms(all, 0.90), ms(all, 0.99), accepted.get(), errors.get(), pageViews.get());
    }

    /** How many page loads each thread makes before its beacons: the page views its beacons belong to. */
    private static final int PAGE_VIEWS = 4;
    private static final Pattern TOKEN = Pattern.compile("data-view-token=\"([^\"]+)\"");

    private static List<String> tokens(HttpClient client, URI page, AtomicLong pageViews) throws Exception {
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < PAGE_VIEWS; i++) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(page).timeout(Duration.ofSeconds(10))
                    .header("Accept", "text/html")
                    .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher token = TOKEN.matcher(answer.body());
            if (answer.statusCode() != 200 || !token.find()) {
                throw new IllegalStateException("the page answered " + answer.statusCode() + " without a view token");
            }
            tokens.add(token.group(1));
            pageViews.incrementAndGet();
        }
        return tokens;
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1e6;
    }
}
