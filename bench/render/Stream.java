import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Time to the first playable segment (issues 15, 25) through the running stack: COUNT requests of a template, one after
 * the other; for each, from sending POST /media/demo until the first segment its stream-url names can be fetched,
 * and until its status is SUCCESS (time-to-video). Prints p50/p99 of both.
 *
 * <pre>
 *   java bench/render/Stream.java GATEWAY TOKEN COUNT [USE_CASE]     (default brand-story)
 * </pre>
 */
public class Stream {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        String gateway = args[0];
        String token = args[1];
        int count = Integer.parseInt(args[2]);
        String useCase = args.length > 3 ? args[3] : "brand-story";
        List<Double> first = new ArrayList<>();
        List<Double> video = new ArrayList<>();
        for (int i = 0; i < count + 2; i++) {
            double[] times = one(gateway, token, useCase, i);
            if (i >= 2 && times != null) { // two warm-up requests
                first.add(times[0]);
                video.add(times[1]);
            }
        }
        Collections.sort(first);
        Collections.sort(video);
        System.out.printf(Locale.ROOT, """
                stream benchmark (%s through the stack, %d requests one after the other, after 2 warm-up)
                POST -> first segment fetchable: p50 %.0f ms, p99 %.0f ms (goal p50 <= 200 ms with a cached opening)
                POST -> SUCCESS (time-to-video): p50 %.0f ms, p99 %.0f ms
                """, useCase, first.size(), percentile(first, 0.5) * 1000, percentile(first, 0.99) * 1000,
                percentile(video, 0.5) * 1000, percentile(video, 0.99) * 1000);
    }

    /** {seconds to the first segment, seconds to SUCCESS}, or null on a failure. */
    private static double[] one(String gateway, String token, String useCase, int n) throws Exception {
        String body = """
                {"client-request-id": "bench-stream-%d-%d", "customer-id": "c", "user-id": "u-%d",
                 "use-case-id": "%s", "data": {"personalization_fields": {"name": "Viewer %d"}}}"""
                .formatted(System.nanoTime(), n, n, useCase, n);
        long started = System.nanoTime();
        String accepted = send(HttpRequest.newBuilder(URI.create(gateway + "/media/demo"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build()).body();
        String id = field(accepted, "service-request-id");
        if (id == null) {
            System.err.println("not accepted: " + accepted);
            return null;
        }
        HttpRequest status = HttpRequest.newBuilder(URI.create(gateway + "/status/" + id))
                .header("Authorization", "Bearer " + token).GET().build();
        String answer = send(status).body();
        String streamUrl = field(answer, "stream-url");
        if (streamUrl == null) {
            System.err.println("no stream-url: " + answer);
            return null;
        }
        // the playlist is polled as a player would (every 5 ms, nothing else in between) until its first segment can
        // be fetched; only then the status, until SUCCESS (a status call between two playlist reads would delay
        // seeing the segment by a gateway round trip)
        Double firstSegment = null;
        int polls = 0;
        while (System.nanoTime() - started < Duration.ofMinutes(2).toNanos()) {
            if (firstSegment == null) {
                HttpResponse<String> playlist = send(HttpRequest.newBuilder(URI.create(streamUrl)).GET().build());
                if (playlist.statusCode() == 200) {
                    String segment = playlist.body().lines().filter(line -> line.startsWith("http")).findFirst()
                            .orElse(null);
                    if (segment != null
                            && send(HttpRequest.newBuilder(URI.create(segment)).GET().build()).statusCode() == 200) {
                        firstSegment = (System.nanoTime() - started) / 1e9;
                    }
                }
                if (firstSegment == null && ++polls % 100 != 0) {
                    Thread.sleep(5);
                    continue;
                }
            }
            String state = field(send(status).body(), "status");
            if ("SUCCESS".equals(state) && firstSegment != null) {
                return new double[]{firstSegment, (System.nanoTime() - started) / 1e9};
            }
            if ("FAILURE".equals(state)) {
                System.err.println("failed: " + id);
                return null;
            }
            Thread.sleep(20);
        }
        return null;
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return matcher.find() ? matcher.group(1).replace("\\u0026", "&").replace("\\/", "/") : null;
    }

    private static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1)));
    }
}
