package io.pmedia.engagement.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.SharedVideo;
import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The public routes of a share: the page and its embed (escaped, unfurling, each load with a view token of its own),
 * the media redirects and the email GIF, the same 404 for every link that does not play, and the beacons the page
 * would never send.
 */
@QuarkusTest
class SharePageRoutesTest extends EngagementFixture {

    @Inject
    ObjectStore store;

    @Test
    void aSharedVideoHasAPageThatEscapesEveryValueAndUnfurls() {
        String share = shared(vendor, UUID.randomUUID(), "<img src=x onerror=alert(1)>", CTA,
                Instant.now().plus(1, ChronoUnit.DAYS), SharedVideo.State.ACTIVE);

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200)
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("Content-Security-Policy", containsString("script-src 'self'"))
                .header("X-Robots-Tag", containsString("noindex"))
                .header("Cache-Control", "private, max-age=60")
                .extract().asString();

        assertThat(page).contains("&lt;img src=x onerror=alert(1)&gt;").doesNotContain("<img src=x");
        assertThat(page).contains("property=\"og:video\"").contains("/v/" + share + "/video.mp4")
                .contains("property=\"og:image\"").contains("name=\"twitter:card\" content=\"player\"")
                .contains("name=\"robots\" content=\"noindex, nofollow\"");
        given().redirects().follow(false).get("/v/" + share + "/video.mp4").then().statusCode(302)
                .header("Location", containsString("X-Amz-Signature"));
    }

    @Test
    void everyLoadOfThePageOrItsEmbedIsAPageViewWithATokenOfItsOwn() {
        String share = shared(UUID.randomUUID());
        Viewer viewer = Viewer.somebody();

        PageView first = open(share, viewer);
        PageView second = open(share, viewer);
        PageView embedded = open(share, viewer, "/embed");

        assertThat(List.of(first.token(), second.token(), embedded.token())).doesNotHaveDuplicates()
                .allMatch(token -> token.matches("[A-Za-z0-9_-]{22}\\.[0-9a-z]+\\.[A-Za-z0-9_-]{22}"));
        assertThat(first.token().split("\\.")[0]).isNotEqualTo(second.token().split("\\.")[0]);
    }

    /**
     * The email GIF of a realtime video is made as soon as its link opens, before anybody asks; once it is in the
     * store, {@code /email.gif} answers with it (the store is the source of truth, not the service's row, which
     * lags the object); a video whose GIF cannot be made (yet) answers with its poster, not cached.
     */
    @Test
    void anEmailGifIsMadeWhenTheLinkOpensAndThePosterStandsInUntilThen() throws Exception {
        UUID request = UUID.randomUUID();
        String folder = "media/" + vendor + "/" + request + "/";
        Path clip = Files.createTempFile("pmedia-clip-", ".mp4");
        try {
            Process ffmpeg = new ProcessBuilder("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc=size=320x180:rate=25:duration=2", "-pix_fmt", "yuv420p", clip.toString())
                    .redirectErrorStream(true).start();
            assertThat(ffmpeg.waitFor()).as(new String(ffmpeg.getInputStream().readAllBytes())).isZero();
            store.put(folder + "video.mp4", clip, "video/mp4");
        } finally {
            Files.deleteIfExists(clip);
        }
        store.put(folder + "thumbnail.jpg", new byte[]{1}, "image/jpeg");
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(video(vendor, request, share, "Ada", CTA, Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE));

        Patience.await().until(() -> store.size(folder + "email.gif").isPresent());
        given().redirects().follow(false).get("/v/" + share + "/email.gif").then().statusCode(302)
                .header("Location", containsString(folder + "email.gif"))
                .header("Cache-Control", containsString("max-age"));

        // A video whose GIF cannot be made: its poster stands in, and nobody caches that answer.
        String broken = shared(vendor, UUID.randomUUID(), "Grace", CTA, Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        given().redirects().follow(false).get("/v/" + broken + "/email.gif").then().statusCode(302)
                .header("Location", containsString("thumbnail.jpg")).header("Cache-Control", "no-store");
    }

    /** A GIF another replica stored (this one's row and cache know nothing of it) is served at once. */
    @Test
    void aGifAlreadyInTheStoreIsServedWithoutBeingMadeAgain() {
        UUID request = UUID.randomUUID();
        String folder = "media/" + vendor + "/" + request + "/";
        store.put(folder + "thumbnail.jpg", new byte[]{1}, "image/jpeg");
        // No video object: a GIF could not be made here, so a 302 to it proves it was found in the store.
        store.put(folder + "email.gif", new byte[]{'G', 'I', 'F'}, "image/gif");
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(video(vendor, request, share, "Ada", CTA, Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE));
        Patience.await().until(() -> rowExists(share));

        Patience.await().untilAsserted(() -> given().redirects().follow(false)
                .get("/v/" + share + "/email.gif").then().statusCode(302)
                .header("Location", containsString(folder + "email.gif"))
                .header("Cache-Control", containsString("max-age")));
    }

    @Test
    void revokedExpiredAndUnknownLinksAnswerTheSame404() {
        String revoked = shared(UUID.randomUUID());
        publish(video(vendor, UUID.randomUUID(), revoked, "Ada", CTA, Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.REVOKED));
        String expired = shared(vendor, UUID.randomUUID(), "Ada", CTA, Instant.now().minusSeconds(1),
                SharedVideo.State.ACTIVE);
        String unknown = "AbCdEfGhIjKlMnOpQrStUvWx";

        Patience.await().untilAsserted(() -> given().get("/v/" + revoked).then()
                .statusCode(404));
        for (String id : List.of(revoked, expired, unknown)) {
            given().header("Accept", "text/html").get("/v/" + id).then().statusCode(404)
                    .header("Cache-Control", "public, max-age=30")
                    .body(containsString("This video is not available"));
            given().get("/v/" + id).then().statusCode(404).body("code", equalTo("NOT_FOUND"))
                    .body("message", equalTo("this video is not available"));
            given().redirects().follow(false).get("/v/" + id + "/video.mp4").then().statusCode(404);
            beacon(id, Viewer.somebody(), Map.of("type", "view", "session", "abcdefgh1")).then().statusCode(404);
        }
    }

    @Test
    void beaconsThePageWouldNeverSendAreRefused() {
        String share = shared(UUID.randomUUID());
        PageView view = open(share, Viewer.somebody());
        view.send("purchase").then().statusCode(400).body("message", containsString("'type'"));
        view.send("progress", "percent", 33).then().statusCode(400).body("message", containsString("'percent'"));
        beacon(share, view.viewer(), Map.of("type", "view", "session", "x")).then().statusCode(400)
                .body("message", containsString("'session'"));
        view.send("play", "seconds", 1_000_000).then().statusCode(400).body("message", containsString("'seconds'"));
        view.send("view", "pad", "x".repeat(5000)).then().statusCode(413);
        // The route reads its own body: Jackson's failures are worded as every JAX-RS endpoint words them.
        given().contentType("text/plain").body("{\"type\":").post("/v/" + share + "/events").then().statusCode(400)
                .body("code", equalTo("BAD_REQUEST")).body("message", equalTo("malformed JSON at line 1, column 9"));
        given().contentType("text/plain").body("{\"type\":\"progress\",\"session\":\"abcdefgh1\",\"percent\":\"x\"}")
                .post("/v/" + share + "/events").then().statusCode(400)
                .body("message", equalTo("field 'percent' has the wrong type: expected an integer"));
        given().contentType("text/plain").body("[1]").post("/v/" + share + "/events").then().statusCode(400)
                .body("message", equalTo("request body must be a JSON object"));
        given().urlEncodingEnabled(false).contentType("text/plain")
                .body("{\"type\":\"view\",\"session\":\"abcdefgh1\"}")
                .post("/v/" + share + "/events?from=%01").then().statusCode(400)
                .body("code", equalTo("VALIDATION_ERROR")).body("message", containsString("query parameter 'from'"));
        given().get("/v/" + share + "/events").then().statusCode(405).header("Allow", "POST")
                .body("code", equalTo("METHOD_NOT_ALLOWED"))
                .body("message", equalTo("method GET is not allowed on /v/" + share + "/events"));
    }

    /**
     * A first frame has its whole milliseconds from 0 to 10 minutes and its source, stream or video; no other beacon
     * has either. Each refusal names its field, in the error body of every endpoint.
     */
    @Test
    void firstFramesThePageWouldNeverSendAreRefused() {
        String share = shared(UUID.randomUUID());
        PageView view = open(share, Viewer.somebody());
        view.send("first-frame", "ms", 300, "source", "cdn").then().statusCode(400)
                .body("code", equalTo("VALIDATION_ERROR"))
                .body("message", equalTo("field 'source' must be one of [stream, video] for a first-frame event"));
        view.send("first-frame", "ms", 300).then().statusCode(400).body("message", containsString("'source'"));
        for (Object ms : new Object[]{-1, 600_001, 1L << 40}) {
            view.send("first-frame", "ms", ms, "source", "stream").then().statusCode(400)
                    .body("code", equalTo("VALIDATION_ERROR"))
                    .body("message", equalTo("field 'ms' must be a whole number of milliseconds from 0 to 600000"));
        }
        view.send("first-frame", "source", "video").then().statusCode(400).body("message", containsString("'ms'"));
        view.send("first-frame", "ms", 12.5, "source", "video").then().statusCode(400)
                .body("code", equalTo("BAD_REQUEST"))
                .body("message", equalTo("field 'ms' has the wrong type: expected an integer"));
        view.send("first-frame", "ms", "300", "source", "video").then().statusCode(400)
                .body("message", containsString("'ms'"));
        view.send("view", "ms", 300).then().statusCode(400)
                .body("message", equalTo("field 'ms' is for first-frame events only"));
        view.send("play", "source", "stream").then().statusCode(400)
                .body("message", equalTo("field 'source' is for first-frame events only"));

        view.send("first-frame", "ms", 0, "source", "stream").then().statusCode(202);
        open(share, Viewer.somebody()).send("first-frame", "ms", 600_000, "source", "video").then().statusCode(202);
    }
}
