package io.pmedia.engagement;

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
import java.util.Properties;
import java.util.UUID;

import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.pmedia.events.CloudEvent;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.EventCodec;
import io.pmedia.events.EventPayload;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.events.ViewerEvent;
import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * engagement-service through its real broker, database and store: the projection of shared videos, the page and
 * its 404s, beacons into Kafka and their rollup (each event and each page-view step once, bots apart, privacy
 * signals obeyed), milestones, and analytics scoped to the caller.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngagementTest extends TestInfrastructure {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static final EventCodec CODEC = new EventCodec(JSON);
    private static final String BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
            + " Chrome/156.0 Safari/537.36";

    @Inject
    ObjectStore store;

    private final UUID vendor = UUID.randomUUID();
    private final UUID other = UUID.randomUUID();
    private KafkaProducer<String, String> producer;
    private KafkaEvents milestones;

    @BeforeAll
    void start() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer = new KafkaProducer<>(props);
        milestones = KafkaEvents.of(KafkaTestResource.bootstrapServers(), Topics.ENGAGEMENT_STATUS);
    }

    @AfterAll
    void stop() {
        producer.close();
        milestones.close();
    }

    @Test
    void aSharedVideoHasAPageThatEscapesEveryValueAndUnfurls() {
        String share = shared(vendor, UUID.randomUUID(), "<img src=x onerror=alert(1)>", Instant.now().plus(1,
                ChronoUnit.DAYS), SharedVideo.State.ACTIVE);

        String page = given().header("Accept", "text/html").get("/v/" + share).then().statusCode(200)
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("Content-Security-Policy", containsString("script-src 'self'"))
                .header("X-Robots-Tag", containsString("noindex"))
                .header("Cache-Control", containsString("max-age"))
                .extract().asString();

        assertThat(page).contains("&lt;img src=x onerror=alert(1)&gt;").doesNotContain("<img src=x");
        assertThat(page).contains("property=\"og:video\"").contains("/v/" + share + "/video.mp4")
                .contains("property=\"og:image\"").contains("name=\"twitter:card\" content=\"player\"")
                .contains("name=\"robots\" content=\"noindex, nofollow\"");
        given().redirects().follow(false).get("/v/" + share + "/video.mp4").then().statusCode(302)
                .header("Location", containsString("X-Amz-Signature"));
    }

    /**
     * The email GIF of a realtime video is made as soon as its link opens, before anybody asks; a video whose GIF
     * cannot be made (yet) answers with its poster, not cached, rather than a 503 or a long wait.
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
        publish(video(vendor, request, share, "Ada", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE));

        Patience.await().until(() -> store.size(folder + "email.gif").isPresent());
        given().redirects().follow(false).get("/v/" + share + "/email.gif").then().statusCode(302)
                .header("Location", containsString(folder + "email.gif"))
                .header("Cache-Control", containsString("max-age"));

        // A video whose GIF cannot be made: its poster stands in, and nobody caches that answer.
        String broken = shared(vendor, UUID.randomUUID(), "Grace", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        given().redirects().follow(false).get("/v/" + broken + "/email.gif").then().statusCode(302)
                .header("Location", containsString("thumbnail.jpg")).header("Cache-Control", "no-store");
    }

    @Test
    void revokedExpiredAndUnknownLinksAnswerTheSame404() {
        String revoked = shared(vendor, UUID.randomUUID(), "Ada", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        publish(video(vendor, UUID.randomUUID(), revoked, "Ada", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.REVOKED));
        String expired = shared(vendor, UUID.randomUUID(), "Ada", Instant.now().minusSeconds(1),
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
        }
    }

    @Test
    void aPageViewCountsEachStepOnceAndReachesItsMilestones() {
        UUID request = UUID.randomUUID();
        String share = shared(vendor, request, "Grace", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        String session = "s" + UUID.randomUUID().toString().replace("-", "");

        for (int twice = 0; twice < 2; twice++) {
            beacon(share, Map.of("type", "view", "session", session)).then().statusCode(202);
            beacon(share, Map.of("type", "play", "session", session, "seconds", 0)).then().statusCode(202);
            for (int percent : new int[]{25, 50, 75}) {
                beacon(share, Map.of("type", "progress", "session", session, "percent", percent, "seconds",
                        percent / 10.0)).then().statusCode(202);
            }
            beacon(share, Map.of("type", "complete", "session", session, "seconds", 9.6)).then().statusCode(202);
            beacon(share, Map.of("type", "cta-click", "session", session, "seconds", 9.6)).then().statusCode(202);
        }

        JsonPath report = Patience.await().until(() -> analytics(vendor, request),
                answer -> answer != null && answer.getInt("totals.completions") == 1
                        && answer.getInt("totals.cta-clicks") == 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
        assertThat(report.getInt("totals.unique-viewers")).isEqualTo(1);
        assertThat(report.getInt("totals.plays")).isEqualTo(1);
        assertThat(report.getMap("funnel")).containsEntry("0", 1).containsEntry("25", 1).containsEntry("50", 1)
                .containsEntry("75", 1).containsEntry("100", 1);
        assertThat(report.getDouble("totals.completion-rate")).isEqualTo(1.0);
        assertThat(report.getDouble("totals.average-percent-watched")).isEqualTo(100.0);

        Patience.await().untilAsserted(() -> assertThat(milestones.withKey(share))
                .extracting(event -> event.data().path("event-type").asText())
                .containsExactlyInAnyOrder(EngagementMilestone.VIEWED, EngagementMilestone.COMPLETED,
                        EngagementMilestone.CTA_CLICKED));
    }

    @Test
    void anEventDeliveredTwiceIsCountedOnce() {
        UUID request = UUID.randomUUID();
        String share = shared(vendor, request, "Lin", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        ViewerEvent view = new ViewerEvent(share, vendor, request, null, null, null, ViewerEvent.Kind.view,
                "session-twice-1", "visitor-1", null, null, false, Instant.now());
        CloudEvent envelope = CODEC.envelope("/test", view);
        send(view, envelope);
        send(view, envelope);
        ViewerEvent second = new ViewerEvent(share, vendor, request, null, null, null, ViewerEvent.Kind.view,
                "session-twice-2", "visitor-2", null, null, false, Instant.now());
        publish(second);

        JsonPath report = Patience.await().until(() -> analytics(vendor, request),
                answer -> answer != null && answer.getInt("totals.views") >= 2);
        assertThat(report.getInt("totals.views")).isEqualTo(2);
    }

    @Test
    void botsAreCountedApartAndPrivacySignalsRecordNothing() {
        UUID request = UUID.randomUUID();
        String share = shared(vendor, request, "Bo", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);

        given().header("User-Agent", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")
                .get("/v/" + share).then().statusCode(200);
        given().header("User-Agent", BROWSER).header("DNT", "1").contentType(ContentType.TEXT)
                .body("{\"type\":\"view\",\"session\":\"privacy-session-1\"}").post("/v/" + share + "/events")
                .then().statusCode(202);
        given().header("User-Agent", BROWSER).header("Sec-GPC", "1").contentType(ContentType.TEXT)
                .body("{\"type\":\"view\",\"session\":\"privacy-session-2\"}").post("/v/" + share + "/events")
                .then().statusCode(202);
        beacon(share, Map.of("type", "view", "session", "counted-session-1")).then().statusCode(202);

        JsonPath report = Patience.await().until(() -> analytics(vendor, request),
                answer -> answer != null && answer.getInt("totals.bot-views") == 1
                        && answer.getInt("totals.views") == 1);
        assertThat(report.getInt("totals.views")).isEqualTo(1);
    }

    @Test
    void beaconsThePageWouldNeverSendAreRefused() {
        String share = shared(vendor, UUID.randomUUID(), "Al", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        beacon(share, Map.of("type", "purchase", "session", "abcdefgh1")).then().statusCode(400)
                .body("message", containsString("'type'"));
        beacon(share, Map.of("type", "progress", "session", "abcdefgh1", "percent", 33)).then().statusCode(400)
                .body("message", containsString("'percent'"));
        beacon(share, Map.of("type", "view", "session", "x")).then().statusCode(400)
                .body("message", containsString("'session'"));
        beacon(share, Map.of("type", "play", "session", "abcdefgh1", "seconds", 1_000_000)).then().statusCode(400)
                .body("message", containsString("'seconds'"));
        beacon(share, Map.of("type", "view", "session", "abcdefgh1", "pad", "x".repeat(5000))).then()
                .statusCode(413);
        beacon("NoSuchShareIdAtAllHere12", Map.of("type", "view", "session", "abcdefgh1")).then().statusCode(404);
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

    @Test
    void aFloodOfBeaconsFromOneAddressIsLimitedAndLeavesOtherPagesAlone() {
        String flooded = shared(vendor, UUID.randomUUID(), "Fl", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        String quiet = shared(vendor, UUID.randomUUID(), "Qu", Instant.now().plus(1, ChronoUnit.DAYS),
                SharedVideo.State.ACTIVE);
        int limited = 0;
        for (int i = 0; i < 60; i++) {
            int status = beacon(flooded, Map.of("type", "view", "session", "flood-session-" + i)).statusCode();
            assertThat(status).isIn(202, 429);
            limited += status == 429 ? 1 : 0;
        }
        assertThat(limited).isGreaterThan(0);
        beacon(quiet, Map.of("type", "view", "session", "quiet-session-1")).then().statusCode(202);
        given().get("/v/" + quiet).then().statusCode(200);
    }

    @Test
    void anotherVendorsAnalyticsAreNotFound() {
        UUID request = UUID.randomUUID();
        UUID template = UUID.randomUUID();
        String share = publish(new SharedVideo(vendor, SharedVideo.Source.batch, null, UUID.randomUUID(),
                "spring-" + request, template, 1, "greeting", List.of(new SharedVideo.Video("Sh" + request.toString()
                        .replace("-", ""), SharedVideo.State.ACTIVE, 1, "u-1", "Title", null, null,
                        "batch/" + vendor + "/t/1/video.mp4", null, null, 1280, 720, 10.0, Instant.now(),
                        Instant.now().plus(1, ChronoUnit.DAYS)))))
                .videos().get(0).shareId();
        Patience.await().untilAsserted(() -> given().get("/v/" + share).then().statusCode(200));
        beacon(share, Map.of("type", "view", "session", "campaign-session-1")).then().statusCode(202);

        Patience.await().untilAsserted(() -> given().auth().oauth2(TestTokens.client(vendor))
                .get("/analytics/campaigns/spring-" + request).then().statusCode(200)
                .body("totals.views", equalTo(1)).body("days.size()", equalTo(1)));
        given().auth().oauth2(TestTokens.client(vendor)).get("/analytics/templates/" + template).then()
                .statusCode(200).body("template-id", equalTo(template.toString()));
        String csv = given().auth().oauth2(TestTokens.client(vendor))
                .get("/analytics/campaigns/spring-" + request + "/videos.csv").then().statusCode(200)
                .contentType(containsString("text/csv")).extract().asString();
        assertThat(csv.lines().toList()).hasSize(2);
        assertThat(csv.lines().toList().get(1)).startsWith(share + ",").contains("/v/" + share);

        given().auth().oauth2(TestTokens.client(other)).get("/analytics/campaigns/spring-" + request).then()
                .statusCode(404).body("code", equalTo("NOT_FOUND"));
        given().auth().oauth2(TestTokens.client(other)).get("/analytics/templates/" + template).then()
                .statusCode(404);
        given().auth().oauth2(TestTokens.client(other)).get("/analytics/campaigns/spring-" + request + "/videos.csv")
                .then().statusCode(404);
        given().auth().oauth2(TestTokens.client(other)).get("/analytics/videos/" + UUID.randomUUID()).then()
                .statusCode(404);
        given().get("/analytics/campaigns/spring-" + request).then().statusCode(401);
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    private io.restassured.response.Response beacon(String share, Map<String, Object> body) {
        try {
            return given().header("User-Agent", BROWSER).header("X-Forwarded-For", "203.0.113.9")
                    .contentType(ContentType.TEXT).body(JSON.writeValueAsString(body))
                    .post("/v/" + share + "/events");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonPath analytics(UUID client, UUID request) {
        var answer = given().auth().oauth2(TestTokens.client(client)).get("/analytics/videos/" + request);
        return answer.statusCode() == 200 ? answer.jsonPath() : null;
    }

    /** A realtime video shared through Kafka, awaited until its page answers as its state says; its share id. */
    private String shared(UUID client, UUID request, String label, Instant expiresAt, SharedVideo.State state) {
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(video(client, request, share, label, expiresAt, state));
        if (state == SharedVideo.State.ACTIVE && expiresAt.isAfter(Instant.now())) {
            Patience.await().untilAsserted(() -> given().redirects().follow(false)
                    .get("/v/" + share + "/video.mp4").then().statusCode(302));
        } else {
            // A link that does not play answers 404 before and after: wait for the projection to hold it.
            Patience.await().until(() -> rowExists(share));
        }
        return share;
    }

    private static boolean rowExists(String share) {
        try (var db = io.pmedia.testing.PostgresTestResource.TestDatabase.fromEnvironment()
                .connect("pmedia_engagement_test");
                var query = db.prepareStatement(
                        "SELECT 1 FROM shared_video WHERE share_id = ?")) {
            query.setString(1, share);
            return query.executeQuery().next();
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private static SharedVideo video(UUID client, UUID request, String share, String label, Instant expiresAt,
            SharedVideo.State state) {
        return new SharedVideo(client, SharedVideo.Source.realtime, request, null, null, UUID.randomUUID(), 1,
                "greeting", List.of(new SharedVideo.Video(share, state, null, "u-1", "Hello",
                        new SharedVideo.Cta("Hi " + label, "https://shop.example/offer"),
                        new SharedVideo.Branding(null, "#112233"), "media/" + client + "/" + request + "/video.mp4",
                        "media/" + client + "/" + request + "/thumbnail.jpg", null, 1280, 720, 10.0, Instant.now(),
                        expiresAt)));
    }

    private <T extends EventPayload> T publish(T payload) {
        send(payload, CODEC.envelope("/test", payload));
        return payload;
    }

    private void send(EventPayload payload, CloudEvent envelope) {
        try {
            producer.send(new ProducerRecord<>(payload.topic(), payload.key(), CODEC.json(envelope))).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
