package io.pmedia.engagement.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import javax.imageio.ImageIO;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.service.Pages;
import io.pmedia.engagement.service.RenderClaims;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Share links rendered on first view (docs/sharing.md), through the real broker and database: the first open of a
 * link without a video asks for its render once, however many opens come at the same moment; the page says "being
 * prepared", its media answer without breaking an email, and a failed render shows the error and a retry.
 */
@QuarkusTest
class OnViewPagesTest extends EngagementFixture {

    @Inject
    ObjectStore store;

    @Inject
    RenderClaims claims;

    @Inject
    Pages pages;

    @Inject
    Vertx vertx;

    private KafkaEvents renders;

    @BeforeAll
    void listenTo() {
        renders = listen(Topics.ENGAGEMENT_RENDERS);
    }

    @Test
    void fiftyOpensAtOnceAskForOneRenderAndThePagePlaysWhenTheVideoComes() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 7, SharedVideo.Render.ON_VIEW);

        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<CompletableFuture<Integer>> opens = IntStream.range(0, 50)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> given().header("Accept", "text/html")
                            .header("User-Agent", BROWSER)
                            .get("/v/" + share + (i % 5 == 0 ? "/video.mp4" : "")).statusCode(), pool))
                    .toList();
            assertThat(opens.stream().map(CompletableFuture::join)).containsOnly(200);
        } finally {
            pool.shutdown();
        }
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).isNotEmpty());
        assertThat(attempts(share)).as("fifty opens, one claim").isEqualTo("1");
        assertThat(renders.withKey(share)).hasSize(1);
        var request = renders.withKey(share).get(0).data();
        assertThat(request.path("source").asText()).isEqualTo("batch");
        assertThat(request.path("task-id").asText()).isEqualTo(task.toString());
        assertThat(request.path("row").asInt()).isEqualTo(7);
        assertThat(request.path("attempt").asInt()).isEqualTo(1);
        assertThat(request.path("client-id").asText()).isEqualTo(vendor.toString());

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString();
        assertThat(page).contains("data-state=\"preparing\"").contains("This video is being prepared")
                .contains("hidden>Try again");
        given().get("/v/" + share + "/state").then().statusCode(200).header("Cache-Control", "no-store")
                .body("state", equalTo("preparing"));
        given().get("/v/" + share + "/video.mp4").then().statusCode(200).header("Cache-Control", "no-store")
                .body("state", equalTo("preparing"));
        // An email's images: a bounded wait, then the "being prepared" picture, never cached, never an error.
        for (String image : List.of("poster.jpg", "email.gif")) {
            given().redirects().follow(false).get("/v/" + share + "/" + image).then().statusCode(302)
                    .header("Location", endsWith("/v/static/preparing.jpg")).header("Cache-Control", "no-store");
        }
        given().get("/v/static/preparing.jpg").then().statusCode(200).contentType(containsString("image/jpeg"));

        // a player reading the stream while the render ends (the pages' cache reads the link, still waiting)
        given().get("/v/" + share + "/stream.m3u8").then().statusCode(200);
        publish(rowPage(task, share, 7, "batch/" + vendor + "/" + task + "/7/video.mp4", null));
        Patience.await().untilAsserted(() -> given().get("/v/" + share + "/state").then()
                .body("state", equalTo("ready")));
        // at once: the page's script plays the MP4 the moment its state says ready, and the pages' cache read the
        // link a moment ago, still waiting (a stale answer here was a JSON body the player could not decode)
        given().redirects().follow(false).get("/v/" + share + "/video.mp4").then().statusCode(302)
                .header("Location", containsString("X-Amz-Signature"));
        assertThat(given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString()).contains("<video id=\"player\"").doesNotContain("data-state=");
        given().redirects().follow(false).get("/v/" + share + "/poster.jpg").then().statusCode(302)
                .header("Location", containsString("X-Amz-Signature"));
        assertThat(renders.withKey(share)).as("a rendered video asks for nothing").hasSize(1);
    }

    /**
     * The pages' cache read the link before its first open claimed the render; once the claim is decided it holds the
     * claimed row, so the player's reloads of the stream (every second or less) do not each claim again, a read of
     * the store and a transaction apiece: under a burst of 200 first opens those held the pool until pages answered
     * 503.
     */
    @Test
    void aLinksFirstOpenLeavesItsClaimInThePagesCacheSoItsStreamReadsAskNoMore() {
        String share = onView(UUID.randomUUID(), 5, SharedVideo.Render.ON_VIEW);
        given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200);
        Patience.await().untilAsserted(() -> assertThat(pages.liveIfKnown(share))
                .hasValueSatisfying(video -> assertThat(video.renderRequestedAt).isNotNull()));
        given().get("/v/" + share + "/stream.m3u8").then().statusCode(200);
        assertThat(attempts(share)).isEqualTo("1");
    }

    /**
     * A viewer who closes the page while its claim waits on the database has still opened the link: the claim runs to
     * its end and the render is asked for. Cut short, the claim's transaction was rolled back under it (the link kept
     * no claim and no render was asked for), and its session, closed under running statements, failed the rest.
     */
    @Test
    void aViewerWhoLeavesWhileTheClaimWaitsHasStillAskedForTheRender() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 4, SharedVideo.Render.ON_VIEW);
        SharedVideoRow video = pages.liveNow(share).await().atMost(WAIT); // read on a context of its own
        Context request = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(request, true);
        AtomicReference<Cancellable> open = new AtomicReference<>();
        try (var lock = PostgresTestResource.TestDatabase.fromEnvironment().connect("pmedia_engagement_test");
                var waiting = PostgresTestResource.TestDatabase.fromEnvironment()
                        .connect("pmedia_engagement_test")) {
            lock.setAutoCommit(false);
            try (var row = lock.prepareStatement("SELECT 1 FROM shared_video WHERE share_id = ? FOR UPDATE")) {
                row.setString(1, share);
                assertThat(row.executeQuery().next()).isTrue();
            }
            request.runOnContext(ignored -> open.set(claims.open(video).subscribe().with(opening -> {
            })));
            // the claim's update waits for the row's lock
            Patience.await().until(() -> {
                try (var query = waiting.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
                    var rows = query.executeQuery();
                    return rows.next() && rows.getInt(1) > 0;
                }
            });
            // the viewer leaves, as the HTTP layer cancels a request whose connection closed: on its context
            CompletableFuture<Void> left = new CompletableFuture<>();
            request.runOnContext(ignored -> {
                open.get().cancel();
                left.complete(null);
            });
            left.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            lock.commit();
        }
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(1));
        assertThat(attempts(share)).isEqualTo("1");
        assertThat(column(share, "render_requested_at")).isNotNull();
    }

    @Test
    void aFailedRenderShowsTheErrorAndARetryAsksAgainWhileAttemptsLast() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 3, SharedVideo.Render.FAILED);

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString();
        assertThat(page).contains("data-state=\"failed\"").contains("could not be prepared")
                .contains("data-retry>Try again");
        assertThat(attempts(share)).as("opening a failed link asks for nothing").isEqualTo("0");

        for (int claim = 1; claim <= 3; claim++) {
            given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("preparing"));
            // The page polls at once: it sees the retry, not the failure its link was cached with a moment ago.
            given().get("/v/" + share + "/state").then().statusCode(200).body("state", equalTo("preparing"));
            int claims = claim;
            Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(claims));
            assertThat(renders.withKey(share).get(claim - 1).data().path("attempt").asInt()).isEqualTo(claim);
            // Asked again while the render runs: nothing more.
            given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("preparing"));
            publish(rowPage(task, share, 3, null, SharedVideo.Render.FAILED));
            Patience.await().untilAsserted(() -> given().get("/v/" + share + "/state").then()
                    .body("state", equalTo("failed")));
        }
        given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("failed"));
        assertThat(renders.withKey(share)).as("three claims at most").hasSize(3);
        assertThat(attempts(share)).isEqualTo("3");

        given().post("/v/" + "Sh" + UUID.randomUUID().toString().replace("-", "") + "/render").then()
                .statusCode(404);
    }

    @Test
    void thePageOfARenderOnViewPlaysItsStreamWhileTheRenderRuns() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 9, SharedVideo.Render.ON_VIEW);
        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200)
                .header("Content-Security-Policy", containsString("media-src 'self' blob:")).extract().asString();
        assertThat(page).contains("data-stream=\"/v/" + share + "/stream.m3u8\"")
                .as("no opening kept: the player reads the stream until it names a segment")
                .doesNotContain("data-opening")
                .contains("<link rel=\"preload\" href=\"/v/static/vendor/hls.light.min.js\" as=\"script\">");
        given().get("/v/static/vendor/hls.light.min.js").then().statusCode(200)
                .contentType(containsString("javascript"));

        // Before the render has written its playlist: an empty EVENT playlist, which a player reloads (never a 404).
        String empty = given().get("/v/" + share + "/stream.m3u8").then().statusCode(200)
                .contentType(containsString("application/vnd.apple.mpegurl")).header("Cache-Control", "no-store")
                .extract().asString();
        assertThat(empty).startsWith("#EXTM3U\n").contains("#EXT-X-PLAYLIST-TYPE:EVENT").doesNotContain(".ts")
                .doesNotContain("#EXT-X-ENDLIST");
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(1));

        // Once the render writes it: the playlist as stored, its segments named by the store's presigned URLs.
        String prefix = streamKey(task, 9).substring(0, streamKey(task, 9).lastIndexOf('/') + 1);
        String written = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
                + "#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:0.500000,\n" + store.publicUrl(prefix + "stream-00000.ts")
                + "\n";
        store.put(streamKey(task, 9), written.getBytes(StandardCharsets.UTF_8), "application/vnd.apple.mpegurl");
        assertThat(given().get("/v/" + share + "/stream.m3u8").then().statusCode(200).extract().asString())
                .isEqualTo(written);

        // Once the stream has its first segment, an email's images are the frame a thumbnail is cut at, taken from
        // it (the template's cached opening, or the first personal second), never cached.
        Path dir = Files.createTempDirectory("stream");
        Path segment = dir.resolve("stream-00000.ts");
        Process ffmpeg = new ProcessBuilder("ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                "color=c=0xd02020:s=320x180:d=0.5:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mpegts",
                segment.toString()).inheritIO().start();
        assertThat(ffmpeg.waitFor()).isZero();
        store.put(prefix + "stream-00000.ts", segment, "video/mp2t");
        // (cut within 2 s of the ask, or by a later ask: until then the platform's picture, never an error)
        for (String image : List.of("poster.jpg", "email.gif")) {
            Patience.await().untilAsserted(() -> given().redirects().follow(false).get("/v/" + share + "/" + image)
                    .then().statusCode(302).header("Location", containsString("/9/stream/poster.jpg"))
                    .header("Cache-Control", "no-store"));
        }
        BufferedImage poster = ImageIO.read(new URL(given().redirects().follow(false).get("/v/" + share
                + "/poster.jpg").header("Location")));
        assertThat(poster.getWidth()).isEqualTo(320);
        Color middle = new Color(poster.getRGB(160, 90));
        assertThat(middle.getRed()).as("the segment's red frame: " + middle).isGreaterThan(170);
        assertThat(middle.getGreen()).isLessThan(80);

        // With its video the page plays the MP4; a player still on the stream reads it to its end.
        publish(rowPage(task, share, 9, "batch/" + vendor + "/" + task + "/9/video.mp4", null));
        Patience.await().untilAsserted(() -> given().get("/v/" + share + "/state").then()
                .body("state", equalTo("ready")));
        Patience.await().untilAsserted(() -> assertThat(given().header("Accept", "text/html").get("/v/" + share)
                .then().statusCode(200).extract().asString()).doesNotContain("data-stream").contains("<video"));
        assertThat(given().get("/v/" + share + "/stream.m3u8").then().statusCode(200).extract().asString())
                .as("a player still on the stream when the video came reads it to its end").isEqualTo(written);
        assertThat(renders.withKey(share)).as("one render asked for, whatever was read").hasSize(1);
    }

    /**
     * The first open of a link rendered on view names its template version's cached opening (kept by media-service's
     * chunk cache) in the link's stream at once, before any worker has the render, which continues that playlist; a
     * kept opening that names another vendor's objects is never used.
     */
    @Test
    void aLinkRenderedOnViewOpensWithItsTemplatesCachedOpeningAtItsFirstOpen() throws Exception {
        UUID task = UUID.randomUUID();
        String share = onView(task, 4, SharedVideo.Render.ON_VIEW);
        UUID template = UUID.fromString(column(share, "template_id"));
        String opening = "cache/" + vendor + "/" + template + "/1/opening-0a1b/";
        store.put(VendorNamespace.templateOpening(vendor, template, 1), ("#EXTM3U\n#EXT-X-VERSION:3\n"
                + "#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:1.000000,\n"
                + opening + "stream-00000.ts\n#EXTINF:1.000000,\n" + opening + "stream-00001.ts\n")
                .getBytes(StandardCharsets.UTF_8), "application/vnd.apple.mpegurl");

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString();
        String stream = given().get("/v/" + share + "/stream.m3u8").then().statusCode(200).extract().asString();
        assertThat(stream).contains("#EXT-X-PLAYLIST-TYPE:EVENT").doesNotContain("#EXT-X-ENDLIST");
        List<String> urls = stream.lines().filter(line -> line.startsWith("http")).toList();
        assertThat(urls).as(stream).hasSize(2);
        assertThat(urls.get(0)).contains(opening + "stream-00000.ts").contains("X-Amz-Signature");
        assertThat(urls.get(1)).contains(opening + "stream-00001.ts");
        assertThat(new String(store.open(streamKey(task, 4)).orElseThrow().readAllBytes(), StandardCharsets.UTF_8))
                .as("the link's own playlist, which the render continues").isEqualTo(stream);
        // the open that wrote it hands it to its player, which so needs no first read of the stream; a later open
        // reads the stream (it may be another replica's, or a retry's)
        java.util.regex.Matcher handed = java.util.regex.Pattern.compile("data-opening=\"([^\"]*)\"").matcher(page);
        assertThat(handed.find()).as(page).isTrue();
        assertThat(unescaped(handed.group(1))).as("exactly what the store holds").isEqualTo(stream);
        assertThat(given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString()).contains("data-stream=").doesNotContain("data-opening");
        Patience.await().untilAsserted(() -> assertThat(renders.withKey(share)).hasSize(1));

        // Another vendor's objects: the stream waits for the render.
        UUID otherTask = UUID.randomUUID();
        String foreign = onView(otherTask, 5, SharedVideo.Render.ON_VIEW);
        UUID foreignTemplate = UUID.fromString(column(foreign, "template_id"));
        store.put(VendorNamespace.templateOpening(vendor, foreignTemplate, 1), ("#EXTM3U\n#EXTINF:1.000000,\n"
                + "cache/" + UUID.randomUUID() + "/" + foreignTemplate + "/1/opening-0a1b/stream-00000.ts\n")
                .getBytes(StandardCharsets.UTF_8), "application/vnd.apple.mpegurl");
        assertThat(given().header("Accept", "text/html").get("/v/" + foreign).then().statusCode(200).extract()
                .asString()).doesNotContain("data-opening");
        assertThat(given().get("/v/" + foreign + "/stream.m3u8").then().statusCode(200).extract().asString())
                .doesNotContain(".ts");
    }

    @Test
    void aVideoRenderedAsAskedOrAnUnknownLinkHasNoStream() {
        String share = shared(vendor, UUID.randomUUID(), "Hello", CTA, Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        assertThat(given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200).extract()
                .asString()).doesNotContain("data-stream");
        given().get("/v/" + share + "/stream.m3u8").then().statusCode(404).body("code", equalTo("NOT_FOUND"));
        given().get("/v/Sh" + UUID.randomUUID().toString().replace("-", "") + "/stream.m3u8").then()
                .statusCode(404).body("code", equalTo("NOT_FOUND"));
    }

    private static String attempts(String share) {
        return column(share, "render_attempts");
    }

    /** An attribute's value as the browser reads it: Qute escapes the five characters HTML gives meaning to. */
    private static String unescaped(String attribute) {
        return attribute.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&amp;", "&");
    }
}
