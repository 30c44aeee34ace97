package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.testing.Patience;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Issue 37, render on first view, through the gateway of the local stack with its real workers and FFmpeg: an on-view
 * task of product-tour hands out {@value #ROWS} share links and renders nothing; links opened in Chromium say "being
 * prepared", then play their video to the end; the same link opened fifty times at once is one render; exactly the
 * opened rows are rendered (the task's counts, the vendor's usage and the store agree), the rest never are.
 */
class OnViewTest {

    private static final int ROWS = 1000;
    /** Rows opened in Chromium; the next one is opened fifty times at once over HTTP. */
    private static final List<Integer> IN_BROWSER = List.of(1, 250, 500, 750, 1000);
    private static final int FIFTY_AT_ONCE = 600;

    @Test
    void onlyTheLinksOpenedAreRenderedOnceAndTheirPagesPlay() throws Exception {
        Stack.Vendor demo = demo();
        String template = demo.call().get("/templates").jsonPath()
                .getString("find { it.'use-case-id' == 'product-tour' }.'template-id'");
        assertThat(template).as("the demo vendor's product-tour template").isNotNull();
        // One realtime render of the version first: the version's first render keeps its opening in the chunk cache,
        // so each link opened below is handed it with its page and plays it at once. (Counted in the usage before the
        // count below starts: usage is rolled up from the status events.)
        int renders = usage(demo).getInt("totals.renders.succeeded");
        String warm = demo.json(Map.of("client-request-id", "on-view-warm-" + UUID.randomUUID(), "customer-id",
                "c-1", "user-id", "u-warm", "use-case-id", "product-tour", "data",
                Map.of("personalization_fields", Map.of("name", "Warm Up")))).post("/media/demo").then()
                .statusCode(200).extract().path("service-request-id");
        assertThat(Stack.finalStatus(demo, warm).getString("status")).isEqualTo("SUCCESS");
        Patience.await().until(() -> usage(demo).getInt("totals.renders.succeeded") > renders);
        JsonPath before = usage(demo);

        StringBuilder csv = new StringBuilder("user-id,name\n");
        IntStream.rangeClosed(1, ROWS).forEach(i -> csv.append("u-").append(i).append(",Viewer ").append(i)
                .append('\n'));
        String file = Stack.upload(demo, "on-view.csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        String campaign = "on-view-" + UUID.randomUUID().toString().substring(0, 8);
        long created = System.nanoTime();
        String task = demo.json(Map.of("client-id", demo.id().toString(), "campaign-id", campaign, "template-id",
                template, "file-name", "on-view.csv", "file-path", file, "priority", 1, "row-count", ROWS,
                "expected-output-duration", 60, "render", "on-view")).post("/media/task/create").then()
                .statusCode(200).extract().path("task-id");
        JsonPath done = Stack.finalTask(demo, task);
        long linksMillis = (System.nanoTime() - created) / 1_000_000;
        assertThat(done.getString("status")).isEqualTo("COMPLETED");
        assertThat(done.getInt("links")).isEqualTo(ROWS);
        assertThat(done.getInt("rendered")).isZero();
        System.out.printf("on view: %d links out %d ms after the create%n", ROWS, linksMillis);

        List<String> links = OnViewLinks.shareUrls(done.getString("file-url"));
        assertThat(links).hasSize(ROWS).doesNotHaveDuplicates().allMatch(url -> url.contains("/v/"));
        assertThat(rendered(demo, task)).as("nothing rendered before a link is opened").isEmpty();

        // The pages reach engagement-service a moment after the output file (through pmedia.batch.status): the vendor
        // sees them in the campaign's video list, which opens nothing.
        OnViewLinks.awaitPages(demo, campaign, ROWS);
        assertThat(rendered(demo, task)).as("listing the videos renders nothing").isEmpty();

        // Five links opened side by side in Chromium: each says it is being prepared, then plays the stream its render
        // writes (hls.js, from the first segment the render stores), to its end.
        List<String> opened = IN_BROWSER.stream().map(row -> links.get(row - 1)).toList();
        Path shot = Path.of("target/browser/on-view-preparing.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        JsonNode seen = Browser.run("on-view.mjs", Map.of("urls", String.join("\n", opened), "screenshot",
                shot.toString()), 720);
        assertThat(seen.has("error")).as(seen.toString()).isFalse();
        assertThat(seen.path("pages")).hasSize(IN_BROWSER.size());
        for (JsonNode page : seen.path("pages")) {
            assertThat(page.path("status").asInt()).as(page.toString()).isEqualTo(200);
            assertThat(page.path("firstState").asText()).as(page.toString()).isEqualTo("preparing");
            assertThat(page.path("player").asText()).as("the render's stream plays while it runs: " + page)
                    .isEqualTo("hls.js");
            assertThat(page.path("handedOpening").asBoolean())
                    .as("the open that claimed the render hands the page the opening it wrote: " + page).isTrue();
            assertThat(page.path("ended").asBoolean()).as(page.toString()).isTrue();
            assertThat(page.path("duration").asDouble()).as(page.toString()).isBetween(29.0, 31.0);
            assertThat(page.path("errors")).as(page.toString()).isEmpty();
            assertThat(page.path("failedRequests")).as("nothing failed but the browser's own favicon: " + page)
                    .allMatch(failed -> failed.asText().endsWith("/favicon.ico"));
            System.out.printf("on view: %s playable (%s) %d ms after it was opened; what it fetched: %s%n",
                    page.path("url").asText(), page.path("player").asText(), page.path("playableMs").asLong(),
                    page.path("timeline"));
        }

        // Each page measured its time to first frame, from the stream: the campaign's analytics have them all.
        Patience.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            JsonPath report = demo.call().get("/analytics/campaigns/" + campaign).then().statusCode(200).extract()
                    .jsonPath();
            assertThat(report.getInt("totals.'first-frame'.stream.count")).as(report.prettify())
                    .isEqualTo(IN_BROWSER.size());
            assertThat(report.getInt("totals.'first-frame'.video.count")).isZero();
            assertThat(report.getInt("totals.'first-frame'.'p50-ms'")).isPositive();
        });

        // One link opened fifty times at the same moment: one render.
        String fifty = links.get(FIFTY_AT_ONCE - 1);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        List<CompletableFuture<Integer>> opens = IntStream.range(0, 50)
                .mapToObj(i -> http.sendAsync(HttpRequest.newBuilder(URI.create(fifty)).header("Accept", "text/html")
                        .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0").build(),
                        HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode))
                .toList();
        assertThat(opens.stream().map(CompletableFuture::join)).containsOnly(200);

        int opensTotal = IN_BROWSER.size() + 1;
        JsonPath[] status = new JsonPath[1];
        Patience.await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            status[0] = demo.call().get("/media/task/status/" + task).jsonPath();
            return status[0].getInt("rendered") + status[0].getInt("render-failed") >= opensTotal;
        });
        assertThat(status[0].getInt("viewed")).isEqualTo(opensTotal);
        assertThat(status[0].getInt("rendered")).isEqualTo(opensTotal);
        assertThat(status[0].getInt("render-failed")).isZero();

        Set<Integer> expected = new TreeSet<>(IN_BROWSER);
        expected.add(FIFTY_AT_ONCE);
        assertThat(rendered(demo, task)).as("exactly the opened rows have a video in the store")
                .isEqualTo(expected);
        Patience.await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
            JsonPath after = usage(demo);
            assertThat(after.getInt("totals.renders.succeeded") - before.getInt("totals.renders.succeeded"))
                    .as("usage counts the renders, one per opened link").isEqualTo(opensTotal);
            assertThat(after.getInt("totals.batch-rows") - before.getInt("totals.batch-rows"))
                    .as("and the links apart").isEqualTo(ROWS);
        });
    }

    /** The demo vendor of the stack: product-tour is its own template. */
    private static Stack.Vendor demo() {
        Map<String, String> env = Stack.env();
        String token = Stack.api().contentType(ContentType.JSON)
                .body(Map.of("client_id", env.get("PMEDIA_DEMO_CLIENT_ID"), "client_secret",
                        env.get("PMEDIA_DEMO_CLIENT_SECRET")))
                .post("/auth/token").then().statusCode(200).extract().path("access_token");
        return new Stack.Vendor(UUID.fromString(env.get("PMEDIA_DEMO_CLIENT_ID")),
                env.get("PMEDIA_DEMO_CLIENT_SECRET"), null, token);
    }

    private static JsonPath usage(Stack.Vendor vendor) {
        return vendor.call().get("/usage").then().statusCode(200).extract().jsonPath();
    }

    /** Rows of the task with a video in the stack's store (S3Proxy's file system). */
    private static Set<Integer> rendered(Stack.Vendor vendor, String task) throws Exception {
        Path dir = Path.of(System.getProperty("pmedia.root", "..")).resolve(".pmedia/s3")
                .resolve(Stack.env().getOrDefault("PMEDIA_S3_BUCKET", "pmedia")).resolve("batch")
                .resolve(vendor.id().toString()).resolve(task);
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        try (Stream<Path> rows = Files.list(dir)) {
            return rows.filter(row -> Files.exists(row.resolve("video.mp4")))
                    .map(row -> Integer.parseInt(row.getFileName().toString()))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
