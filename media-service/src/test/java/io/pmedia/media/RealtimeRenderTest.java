package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.download;
import static io.pmedia.media.MediaApi.rendered;
import static io.pmedia.media.MediaApi.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** Whole renders over the real database, broker and object store: what a vendor gets back plays. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealtimeRenderTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    ObjectStore store;

    private KafkaEvents statusEvents;
    private AssetServer assets;
    private final FfmpegRunner ffmpeg = FfmpegRunner.locate(null);

    @BeforeAll
    void setUp() throws Exception {
        statusEvents = KafkaEvents.of(bootstrap, "pmedia.media.status");
        assets = new AssetServer();
    }

    /** Registration is idempotent; RestAssured is only pointed at the application per test. */
    @BeforeEach
    void templates() throws Exception {
        MediaApi.registerTemplate(Files.readString(Path.of("../deploy/local/templates/greeting.json")));
        MediaApi.registerTemplate(Files.readString(Path.of("../deploy/local/templates/classic-card.json")));
        MediaApi.registerTemplate(MediaApi.TINY);
    }

    @AfterAll
    void tearDown() {
        statusEvents.close();
        assets.close();
    }

    @Test
    void theDemoGreetingRendersAPlayablePersonalizedVideo(@TempDir Path dir) throws Exception {
        UUID client = UUID.randomUUID();
        JsonPath json = request(client, body("greet-1", "greeting", Map.of(
                "personalization_fields", Map.of("name", "Ada", "offer", "20% off your next order"),
                "global_assets", Map.of("images", List.of(assets.url("/ada.png"))))))
                .statusCode(200).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("SUCCESS");
        assertThat(json.getString("message")).isEqualTo("request accepted");
        assertThat(json.getString("client-request-id")).isEqualTo("greet-1");
        assertThat(json.getString("service-request-id")).matches("[0-9a-f-]{36}");
        String id = json.getString("service-request-id");

        JsonPath status = awaitFinal(client, id);
        assertThat(status.getString("status")).isEqualTo("SUCCESS");
        assertThat(status.getString("message")).isEqualTo("video ready");

        FfmpegRunner.Probe video = ffmpeg.probe(download(status.getString("video-url"), dir, "video.mp4"));
        assertThat(video.durationSeconds()).isCloseTo(10.0, within(0.1));
        assertThat(video.width()).isEqualTo(1280);
        assertThat(video.height()).isEqualTo(720);
        assertThat(video.count("video")).isEqualTo(1);
        assertThat(video.count("audio")).isEqualTo(1);
        FfmpegRunner.Probe thumbnail = ffmpeg.probe(download(status.getString("image-url"), dir, "thumb.jpg"));
        assertThat(thumbnail.width()).isEqualTo(1280);
        assertThat(assets.hits("/ada.png")).isEqualTo(1);

        // The topic also carries the request's share link (io.pmedia.video.shared), in the same order as its status.
        Patience.await().untilAsserted(() -> assertThat(statusChanges(id))
                .extracting(event -> event.data().get("status").asText()).containsExactly("PROCESSING", "SUCCESS"));
        assertThat(statusEvents.withKey(id)).extracting(event -> event.envelope().get("type").asText())
                .containsOnlyOnce("io.pmedia.video.shared");
        var success = statusChanges(id).get(1);
        assertThat(success.envelope().get("type").asText()).isEqualTo("io.pmedia.media.status.changed");
        assertThat(success.data().get("client-id").asText()).isEqualTo(client.toString());
        assertThat(success.data().get("client-request-id").asText()).isEqualTo("greet-1");
        assertThat(success.data().get("user-id").asText()).isEqualTo("user-1");
        assertThat(success.data().get("video-url").asText()).startsWith("http");
        assertThat(success.contentType()).startsWith("application/cloudevents+json");
    }

    @Test
    void theStreamPlaylistAnswersTheMomentTheStatusOffersIt() {
        UUID client = UUID.randomUUID();
        String id = request(client, body("stream-at-once-1", "greeting", Map.of(
                "personalization_fields", Map.of("name", "Ada"),
                "global_assets", Map.of("images", List.of(assets.url("/ada.png"))))))
                .statusCode(200).extract().path("service-request-id");

        // the first status read after the acceptance: a player handed stream-url now must find a playlist
        JsonPath first = MediaApi.status(client, id).statusCode(200).extract().jsonPath();
        assertThat(first.getString("stream-url")).isNotNull();
        String playlist = io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .get(first.getString("stream-url")).then().statusCode(200)
                .contentType("application/vnd.apple.mpegurl").extract().asString();
        assertThat(playlist).startsWith("#EXTM3U\n").contains("#EXT-X-TARGETDURATION:");
        if ("PROCESSING".equals(first.getString("status"))) {
            assertThat(playlist).as("an EVENT playlist while the video renders, segments or not yet")
                    .contains("#EXT-X-PLAYLIST-TYPE:EVENT").doesNotContain("#EXT-X-ENDLIST");
        }

        JsonPath done = awaitFinal(client, id);
        assertThat(done.getString("status")).isEqualTo("SUCCESS");
        assertThat(io.restassured.RestAssured.given().urlEncodingEnabled(false).get(done.getString("stream-url"))
                .then().statusCode(200).extract().asString())
                .as("the publisher replaced it with the complete stream").contains("#EXT-X-PLAYLIST-TYPE:VOD")
                .contains("#EXTINF:").endsWith("#EXT-X-ENDLIST\n");
    }

    /** hls.js in Chromium (media-service/src/test/browser/stream-play.mjs), default configuration. */
    @Test
    void hlsJsInChromiumPlaysTheStreamToItsEndWhenHandedTheUrlTheMomentTheStatusOffersIt() throws Exception {
        UUID client = UUID.randomUUID();
        String id = request(client, body("stream-hlsjs-1", "greeting", Map.of(
                "personalization_fields", Map.of("name", "Ada"),
                "global_assets", Map.of("images", List.of(assets.url("/ada.png"))))))
                .statusCode(200).extract().path("service-request-id");
        String streamUrl = MediaApi.status(client, id).statusCode(200).extract().path("stream-url");
        assertThat(streamUrl).isNotNull();

        Process node = new ProcessBuilder("node", Path.of("src/test/browser/stream-play.mjs").toString(), streamUrl)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(node.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(node.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        JsonPath played = new JsonPath(out.lines().reduce((a, b) -> b).orElse("{}"));

        assertThat(played.getList("fatal")).as(out).isEmpty();
        assertThat(played.getBoolean("ended")).as(out).isTrue();
        assertThat(played.getDouble("duration")).as("the whole 10 s video").isCloseTo(10.0, within(0.3));
        assertThat(awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");
    }

    @Test
    void theEarlierFormRendersToo(@TempDir Path dir) throws Exception {
        UUID client = UUID.randomUUID();
        JsonPath json = io.restassured.RestAssured.given()
                .header("Authorization", TestTokens.bearer(client))
                .contentType(ContentType.JSON)
                .body(Map.of("client-request-id", "card-1", "customer-id", "c", "use-case-id", "classic-card",
                        "user-id", "u", "phrase-texts", List.of("Dear Ada", "Bye"), "image-texts", List.of("2019"),
                        "image-urls", List.of(assets.url("/card.png"))))
                .post("/video/demo").then().statusCode(200).extract().jsonPath();
        assertThat(json.getString("status")).isEqualTo("SUCCESS");
        String id = json.getString("service-request-id");
        JsonPath status = awaitFinal(client, id);
        assertThat(status.getString("status")).isEqualTo("SUCCESS");
        FfmpegRunner.Probe video = ffmpeg.probe(download(status.getString("video-url"), dir, "card.mp4"));
        assertThat(video.durationSeconds()).isCloseTo(8.0, within(0.1));
    }

    @Test
    void aRepeatedAssetIsFetchedOnce() {
        UUID client = UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
            String id = request(client, body("cache-" + i, "tiny", Map.of("personalization_fields",
                    Map.of("name", "Bo"), "global_assets", Map.of("images", List.of(assets.url("/shared.png"))))))
                    .statusCode(200).extract().path("service-request-id");
            assertThat(awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");
        }
        assertThat(assets.hits("/shared.png")).isEqualTo(1);
    }

    @Test
    void anAssetOfTheWrongTypeFailsTheRenderWithAReason() {
        JsonPath status = renderWithImage("html-1", "/page.html");
        assertThat(status.getString("status")).isEqualTo("FAILURE");
        assertThat(status.getString("message")).contains("did not answer with an accepted content type")
                .contains("page.html").doesNotContain("text/html");
        assertThat(status.getString("video-url")).isNull();
    }

    @Test
    void anImageFfmpegCannotDecodeFailsTheRenderWithItsReason() {
        JsonPath status = renderWithImage("broken-1", "/broken.png");
        assertThat(status.getString("status")).isEqualTo("FAILURE");
        assertThat(status.getString("message")).startsWith("ffmpeg failed: ").doesNotContain("/tmp/");
        assertThat(status.getString("video-url")).isNull();
        assertThat(status.getString("image-url")).isNull();
    }

    private List<KafkaEvents.Event> statusChanges(String id) {
        return statusEvents.withKey(id).stream()
                .filter(event -> "io.pmedia.media.status.changed".equals(event.envelope().get("type").asText()))
                .toList();
    }

    /** A tiny render whose image is the asset server's {@code path}: accepted, then its final status. */
    private JsonPath renderWithImage(String clientRequestId, String path) {
        UUID client = UUID.randomUUID();
        JsonPath accepted = request(client,
                body(clientRequestId, "tiny", Map.of("personalization_fields", Map.of("name", "Bo"),
                        "global_assets", Map.of("images", List.of(assets.url(path))))))
                .statusCode(200).extract().jsonPath();
        assertThat(accepted.getString("status")).isEqualTo("SUCCESS");
        return awaitFinal(client, accepted.getString("service-request-id"));
    }

    @Test
    void aRedirectToAMetadataAddressIsRefusedOnThatHop() {
        UUID client = UUID.randomUUID();
        JsonPath status = rendered(client, body("redirect-1", "tiny", Map.of("personalization_fields",
                Map.of("name", "Bo"), "global_assets", Map.of("images", List.of(assets.url("/redirect.png"))))));
        assertThat(status.getString("status")).isEqualTo("FAILURE");
        assertThat(status.getString("message")).contains("metadata.cloud.example")
                .contains("does not resolve to a public address");
        assertThat(assets.hits("/redirect.png")).isEqualTo(1);
    }

    @Test
    void assetsOnPrivateOrMetadataAddressesAreRefusedWithoutBeingDialled() {
        UUID client = UUID.randomUUID();
        for (String host : List.of("assets.internal.example", "metadata.cloud.example")) {
            JsonPath status = rendered(client, body("private-" + host, "tiny", Map.of("personalization_fields",
                    Map.of("name", "Bo"), "global_assets", Map.of("images", List.of("http://" + host + "/x.png")))));
            assertThat(status.getString("status")).isEqualTo("FAILURE");
            assertThat(status.getString("message")).contains(host).contains("does not resolve to a public address");
        }
    }

    @Test
    void anAssetInThePlatformStoreRendersForItsOwnerOnlyAndReadsLikeAMissingOneForOthers() throws Exception {
        UUID owner = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        String key = "inputs/" + owner + "/" + UUID.randomUUID() + "/photo.png";
        store.put(key, AssetServer.png(), "image/png");
        String endpoint = ConfigProvider.getConfig().getValue("pmedia.storage.endpoint", String.class);
        String plain = endpoint + "/" + store.bucket() + "/" + key;
        String missing = endpoint + "/" + store.bucket() + "/inputs/" + other + "/" + UUID.randomUUID() + "/photo.png";

        for (String url : List.of(plain, store.publicUrl(key))) {
            String id = request(owner, body("own-" + UUID.randomUUID(), "tiny", Map.of("personalization_fields",
                    Map.of("name", "Bo"), "global_assets", Map.of("images", List.of(url)))))
                    .statusCode(200).extract().path("service-request-id");
            assertThat(awaitFinal(owner, id).getString("status")).as(url).isEqualTo("SUCCESS");
        }
        for (String url : List.of(plain, store.publicUrl(key), missing)) {
            String id = request(other, body("foreign-" + UUID.randomUUID(), "tiny", Map.of("personalization_fields",
                    Map.of("name", "Bo"), "global_assets", Map.of("images", List.of(url)))))
                    .statusCode(200).extract().path("service-request-id");
            JsonPath status = awaitFinal(other, id);
            assertThat(status.getString("status")).isEqualTo("FAILURE");
            assertThat(status.getString("message"))
                    .isEqualTo("asset " + (url.length() <= 120 ? url : url.substring(0, 120) + "...")
                            + " could not be fetched: not found");
        }
    }
}
