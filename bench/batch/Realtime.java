import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Open-loop realtime load for bench/batch: COUNT requests of the demo template (POST /media/demo), one every EVERY
 * seconds whatever the earlier ones do, each followed until its status is SUCCESS (GET /status/{id} every 50 ms).
 * Prints "p50 p99 max failures" of the time-to-video in seconds, and every time on a second line.
 *
 * <pre>
 *   java bench/batch/Realtime.java GATEWAY TOKEN API_KEY USE_CASE COUNT EVERY [PHOTO_URL]
 * </pre>
 */
public class Realtime {

    private static final Pattern FIELD = Pattern.compile("\"%s\"\\s*:\\s*\"([^\"]*)\"");

    public static void main(String[] args) throws Exception {
        String gateway = args[0];
        String token = args[1];
        String apiKey = args[2];
        String useCase = args[3];
        int count = Integer.parseInt(args[4]);
        double every = Double.parseDouble(args[5]);
        String photo = args.length > 6 ? args[6] : null;
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        ExecutorService pool = Executors.newCachedThreadPool();
        List<Future<Double>> times = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long due = start + (long) (i * every * 1e9);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            int n = i;
            times.add(pool.submit(() -> one(client, gateway, token, apiKey, useCase, n, photo)));
        }
        List<Double> ok = new ArrayList<>();
        int failures = 0;
        for (Future<Double> time : times) {
            Double seconds = time.get();
            if (seconds == null) {
                failures++;
            } else {
                ok.add(seconds);
            }
        }
        pool.shutdown();
        Collections.sort(ok);
        System.out.printf(Locale.ROOT, "%.3f %.3f %.3f %d%n", percentile(ok, 0.5), percentile(ok, 0.99),
                ok.isEmpty() ? Double.NaN : ok.get(ok.size() - 1), failures);
        StringBuilder all = new StringBuilder();
        ok.forEach(t -> all.append(String.format(Locale.ROOT, "%.3f ", t)));
        System.out.println(all.toString().strip());
    }

    /** Seconds from the request to its SUCCESS status; null when it failed or took over 5 minutes. */
    private static Double one(HttpClient client, String gateway, String token, String apiKey, String useCase, int n,
            String photo) {
        try {
            String images = photo == null ? "" : ", \"global_assets\": {\"images\": [\"" + photo + "\"]}";
            String body = """
                    {"client-request-id": "bench-rt-%d-%d", "customer-id": "c", "user-id": "u-%d",
                     "use-case-id": "%s",
                     "data": {"personalization_fields": {"name": "Ada %d", "offer": "20%% off"}%s}}"""
                    .formatted(System.nanoTime(), n, n, useCase, n, images);
            long started = System.nanoTime();
            HttpResponse<String> accepted = client.send(HttpRequest.newBuilder(URI.create(gateway + "/media/demo"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            String id = field(accepted.body(), "service-request-id");
            if (id == null) {
                System.err.println("not accepted: " + accepted.body());
                return null;
            }
            HttpRequest status = HttpRequest.newBuilder(URI.create(gateway + "/status/" + id))
                    .header("x-api-key", apiKey).header("Authorization", "Bearer " + token).GET().build();
            while (System.nanoTime() - started < Duration.ofMinutes(5).toNanos()) {
                String answer = client.send(status, HttpResponse.BodyHandlers.ofString()).body();
                String state = field(answer, "status");
                if ("SUCCESS".equals(state)) {
                    return (System.nanoTime() - started) / 1e9;
                }
                if ("FAILURE".equals(state)) {
                    System.err.println("failed: " + answer);
                    return null;
                }
                Thread.sleep(50);
            }
            return null;
        } catch (Exception e) {
            System.err.println("request " + n + ": " + e);
            return null;
        }
    }

    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile(FIELD.pattern().formatted(Pattern.quote(name))).matcher(json);
        return matcher.find() ? matcher.group(1) : null;
    }

    private static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
