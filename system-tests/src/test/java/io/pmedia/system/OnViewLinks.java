package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * Links rendered on first view (issue 37) for the tests and fault scenarios that open them: an on-view batch task's
 * share links, read from its output file (which opens nothing), and what a viewer's browser asks of one.
 */
final class OnViewLinks {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final String BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0";

    private OnViewLinks() {
    }

    /** An on-view task of {@code rows} rows of {@code template} (a field {@code name}): its id, done and its links. */
    record Task(String id, String campaign, List<String> links) {
    }

    /**
     * Creates the task, waits for its output file (every row's share-url, nothing rendered) and for the links' pages to
     * reach engagement-service (the campaign's video list, which opens nothing).
     */
    static Task create(Vendor vendor, String template, int rows) {
        StringBuilder csv = new StringBuilder("user-id,name\n");
        IntStream.rangeClosed(1, rows).forEach(i -> csv.append("u-").append(i).append(",Viewer ").append(i)
                .append('\n'));
        String file = Stack.upload(vendor, "on-view.csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        String campaign = "on-view-" + UUID.randomUUID().toString().substring(0, 8);
        String task = vendor.json(Map.of("campaign-id", campaign, "template-id", template, "file-name",
                "on-view.csv", "file-path", file, "row-count", rows, "expected-output-duration", 10, "render",
                "on-view")).post("/media/task/create").then().statusCode(200).extract().path("task-id");
        JsonPath done = Stack.finalTask(vendor, task);
        assertThat(done.getString("status")).as(done.prettify()).isEqualTo("COMPLETED");
        assertThat(done.getInt("links")).isEqualTo(rows);
        assertThat(done.getInt("rendered")).isZero();
        List<String> links = shareUrls(done.getString("file-url"));
        assertThat(links).hasSize(rows).allMatch(url -> url.contains("/v/"));
        awaitPages(vendor, campaign, rows);
        return new Task(task, campaign, links);
    }

    /** The share-url column of a task's output file. */
    static List<String> shareUrls(String fileUrl) {
        return get(fileUrl).body().lines().skip(1).map(line -> line.split(",")[6]).toList();
    }

    /**
     * Waits for the pages of a campaign's {@code rows} links to reach engagement-service (through
     * pmedia.batch.status, a moment after the output file): the campaign's video list, which opens nothing.
     */
    static void awaitPages(Vendor vendor, String campaign, int rows) {
        Patience.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            var list = vendor.call().get("/analytics/campaigns/" + campaign + "/videos.csv");
            return list.statusCode() == 200 && list.asString().lines().count() == rows + 1;
        });
    }

    /** A viewer opens the page: its status code. */
    static int open(String link) {
        return send(HttpRequest.newBuilder(URI.create(link)).header("Accept", "text/html")
                .header("User-Agent", BROWSER).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** What the page's script asks while it waits: {@code preparing}, {@code ready} or {@code failed}. */
    static String state(String link) {
        HttpResponse<String> answer = get(link + "/state");
        assertThat(answer.statusCode()).as(link + "/state: " + answer.body()).isEqualTo(200);
        return JsonPath.from(answer.body()).getString("state");
    }

    /** Whether the link's video.mp4 leads to an MP4 now (a redirect to the store, whose first box is ftyp). */
    static boolean playsMp4(String link) {
        HttpResponse<String> video = get(link + "/video.mp4");
        if (video.statusCode() != 302) {
            return false;
        }
        HttpResponse<byte[]> head = send(HttpRequest.newBuilder(URI.create(video.headers().firstValue("Location")
                .orElseThrow())).header("Range", "bytes=0-15").build(), HttpResponse.BodyHandlers.ofByteArray());
        return head.statusCode() / 100 == 2 && new String(head.body(), StandardCharsets.ISO_8859_1).contains("ftyp");
    }

    static HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("User-Agent", BROWSER).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
        try {
            return HTTP.send(request, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
