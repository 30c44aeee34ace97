package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.media.service.MediaRequests;
import io.pmedia.testing.ErrorAssertions;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A realtime request rendered on first view (docs/sharing.md, "Render on first view"), over the real database and
 * broker: accepted with its share link and no render; engagement-service's claim of the link's first view (played here
 * on {@code pmedia.engagement.renders}) or the owner's status read renders it once, and the link keeps its share id.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OnViewRequestTest {

    private static final EventCodec CODEC = new EventCodec(new ObjectMapper().findAndRegisterModules());

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MediaRequests requests;

    @Inject
    Vertx vertx;

    private KafkaEvents statusEvents;
    private KafkaEvents jobs;
    private AssetServer assets;

    @BeforeAll
    void setUp() throws Exception {
        statusEvents = KafkaEvents.of(bootstrap, Topics.MEDIA_STATUS);
        jobs = KafkaEvents.of(bootstrap, Topics.RENDER_JOBS);
        assets = new AssetServer();
    }

    @BeforeEach
    void templates() {
        MediaApi.registerTemplate(MediaApi.TINY);
    }

    @AfterAll
    void tearDown() {
        statusEvents.close();
        jobs.close();
        assets.close();
    }

    @Test
    void anOnViewRequestRendersOnlyOnceItsLinkIsOpenedOnceAndKeepsItsShareId() throws Exception {
        UUID client = UUID.randomUUID();
        JsonPath accepted = request(client, onView("on-view-1")).statusCode(200).extract().jsonPath();
        assertThat(accepted.getString("status")).isEqualTo("SUCCESS");
        assertThat(accepted.getString("message"))
                .isEqualTo("request accepted; rendered when its share-url is first opened");
        String id = accepted.getString("service-request-id");

        // Its page is published at once, without a video; no job is.
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(1));
        JsonNode page = pages(id).get(0);
        String shareId = page.path("share-id").asText();
        assertThat(shareId).matches("[A-Za-z0-9_-]{24}");
        assertThat(accepted.getString("share-url")).as("the link, out with the acceptance, before any render")
                .endsWith("/v/" + shareId);
        assertThat(request(client, onView("on-view-1")).statusCode(200).extract().jsonPath().getString("share-url"))
                .as("the same request again: the same link").endsWith("/v/" + shareId);
        assertThat(page.path("render").asText()).isEqualTo("on-view");
        assertThat(page.has("video-key")).isFalse();
        assertThat(page.path("state").asText()).isEqualTo("ACTIVE");
        // Its page plays the stream the render will write, where the job's stream goes (as stream-url says).
        assertThat(page.path("stream-key").asText()).isEqualTo("media/" + client + "/" + id + "/stream/index.m3u8");

        // Another vendor's claim of it, a claim naming another link, and the stale-render sweep render nothing: a
        // sentinel behind them on the same partition (the link's key) renders, and this request still has no job.
        String sentinel = request(client, onView("on-view-sentinel")).statusCode(200).extract()
                .path("service-request-id");
        Patience.await().untilAsserted(() -> assertThat(pages(sentinel)).hasSize(1));
        String sentinelShare = pages(sentinel).get(0).path("share-id").asText();
        markStale(id);
        String swept = request(client, body("on-view-swept", "tiny", Map.of("personalization_fields",
                Map.of("name", "Sam")))).statusCode(200).extract().path("service-request-id");
        assertThat(awaitFinal(client, swept).getString("status")).isEqualTo("SUCCESS");
        markStale(swept);
        Patience.await().until(() -> jobs.withKey(swept).size() == 2);
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, shareId, new RenderOnView(UUID.randomUUID(), shareId, SharedVideo.Source.realtime,
                    UUID.fromString(id), null, null, 1, Instant.now()));
            send(producer, shareId, new RenderOnView(client, sentinelShare, SharedVideo.Source.realtime,
                    UUID.fromString(id), null, null, 1, Instant.now()));
            send(producer, shareId, new RenderOnView(client, sentinelShare, SharedVideo.Source.realtime,
                    UUID.fromString(sentinel), null, null, 1, Instant.now()));
        }
        Patience.await().until(() -> jobs.withKey(sentinel).size() == 1);
        assertThat(jobs.withKey(id)).as("forged claims and the sweep render nothing").isEmpty();
        assertThat(jobs.withKey(sentinel).get(0).data().path("job-id").asText()).isEqualTo(sentinel);

        // The first open, twice (a redelivery, a second replica): one render.
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < 2; i++) {
                send(producer, shareId, new RenderOnView(client, shareId, SharedVideo.Source.realtime,
                        UUID.fromString(id), null, null, 1, Instant.now()));
            }
        }
        Patience.await().until(() -> jobs.withKey(id).size() == 1);
        JsonPath done = awaitFinal(client, id);
        assertThat(done.getString("status")).isEqualTo("SUCCESS");
        assertThat(done.getString("video-url")).startsWith("http");
        assertThat(done.getString("share-url")).endsWith("/v/" + shareId);
        assertThat(jobs.withKey(id)).hasSize(1);

        // The same link, now with its video: the page plays it.
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(2));
        JsonNode rendered = pages(id).get(1);
        assertThat(rendered.path("share-id").asText()).isEqualTo(shareId);
        assertThat(rendered.path("video-key").asText()).endsWith(id + "/video.mp4");
        assertThat(rendered.has("render")).as("rendered: nothing pending").isFalse();
        assertThat(rendered.has("stream-key")).isFalse();
        assertThat(jobs.withKey(id).get(0).data().path("output-prefix").asText() + RenderJob.STREAM_PLAYLIST)
                .isEqualTo(page.path("stream-key").asText());
        assertThat(statusEvents.withKey(id)).extracting(event -> event.data().path("status").asText())
                .filteredOn(status -> !status.isEmpty()).containsExactly("PROCESSING", "SUCCESS");
    }

    @Test
    void theOwnersStatusReadIsAFirstViewAndRendersItOnce() {
        UUID client = UUID.randomUUID();
        String id = request(client, onView("on-view-status")).statusCode(200).extract().path("service-request-id");
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(1));
        String shareId = pages(id).get(0).path("share-id").asText();

        JsonPath first = MediaApi.status(client, id).statusCode(200).extract().jsonPath();
        assertThat(first.getString("status")).isEqualTo("PROCESSING");
        assertThat(first.getString("video-url")).isNull();
        assertThat(first.getString("share-url")).endsWith("/v/" + shareId);
        assertThat(first.getString("stream-url")).as("a render is on its way").isNotNull();
        // another vendor's read of it is 404 and claims nothing
        MediaApi.status(UUID.randomUUID(), id).statusCode(404);

        JsonPath done = awaitFinal(client, id);
        assertThat(done.getString("status")).isEqualTo("SUCCESS");
        assertThat(done.getString("share-url")).endsWith("/v/" + shareId);
        assertThat(jobs.withKey(id)).hasSize(1);

        // a revoked link is viewed by nobody, and its owner's read renders nothing either; a sentinel read after it
        // renders, and the revoked one still has no job
        String revoked = request(client, onView("on-view-revoked")).statusCode(200).extract()
                .path("service-request-id");
        given().header("Authorization", TestTokens.bearer(client)).delete("/media/" + revoked + "/share").then()
                .statusCode(204);
        JsonPath unread = MediaApi.status(client, revoked).statusCode(200).extract().jsonPath();
        assertThat(unread.getString("status")).isEqualTo("PROCESSING");
        assertThat(unread.getString("message")).isEqualTo("rendered when its share-url is first opened");
        String sentinel = request(client, onView("on-view-revoked-sentinel")).statusCode(200).extract()
                .path("service-request-id");
        MediaApi.status(client, sentinel).statusCode(200);
        Patience.await().until(() -> jobs.withKey(sentinel).size() == 1);
        assertThat(jobs.withKey(revoked)).isEmpty();
    }

    /**
     * An owner who stops waiting for its status read while the read's claim waits on the database has still viewed
     * the request: the claim runs to its end and the render goes out. Cut short, the claim's transaction was rolled
     * back under it and nothing was rendered until the next read.
     */
    @Test
    void anOwnerWhoStopsWaitingForItsStatusReadHasStillClaimedTheRender() throws Exception {
        UUID client = UUID.randomUUID();
        String id = request(client, onView("on-view-left")).statusCode(200).extract().path("service-request-id");
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(1));
        Context request = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(request, true);
        AtomicReference<Cancellable> read = new AtomicReference<>();
        try (Connection lock = dataSource.getConnection(); Connection waiting = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement row = lock.prepareStatement("SELECT 1 FROM media_request WHERE id = ? FOR UPDATE")) {
                row.setObject(1, UUID.fromString(id));
                assertThat(row.executeQuery().next()).isTrue();
            }
            request.runOnContext(ignored -> read.set(requests.status(client, id).subscribe().with(status -> {
            })));
            // the claim's update waits for the row's lock
            Patience.await().until(() -> {
                try (PreparedStatement query = waiting.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
                    var rows = query.executeQuery();
                    return rows.next() && rows.getInt(1) > 0;
                }
            });
            // the owner stops waiting, as the HTTP layer cancels a request whose connection closed: on its context
            CompletableFuture<Void> left = new CompletableFuture<>();
            request.runOnContext(ignored -> {
                read.get().cancel();
                left.complete(null);
            });
            left.get(30, TimeUnit.SECONDS);
            lock.commit();
        }
        Patience.await().untilAsserted(() -> assertThat(jobs.withKey(id)).hasSize(1));
        assertThat(awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");
        assertThat(jobs.withKey(id)).hasSize(1);
    }

    @Test
    void aFailedRenderOnViewMarksItsPageFailedAndAViewersRetryRendersNothingMore() throws Exception {
        UUID client = UUID.randomUUID();
        String id = brokenOnView(client, "on-view-broken");
        String shareId = pages(id).get(0).path("share-id").asText();

        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, shareId, new RenderOnView(client, shareId, SharedVideo.Source.realtime,
                    UUID.fromString(id), null, null, 1, Instant.now()));
        }
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(2));
        assertThat(pages(id).get(1).path("render").asText()).isEqualTo("failed");
        assertThat(pages(id).get(1).path("share-id").asText()).isEqualTo(shareId);
        assertThat(awaitFinal(client, id).getString("status")).isEqualTo("FAILURE");

        // engagement-service's claim of the viewer's "Try again": the request's FAILURE is final, the page says so again
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, shareId, new RenderOnView(client, shareId, SharedVideo.Source.realtime,
                    UUID.fromString(id), null, null, 2, Instant.now()));
        }
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(3));
        assertThat(pages(id).get(2).path("render").asText()).isEqualTo("failed");
        assertThat(jobs.withKey(id)).hasSize(1);
    }

    @Test
    void aRenderTheOwnersReadClaimedThatFailedIsShownFailedAtTheViewersFirstRetry() throws Exception {
        UUID client = UUID.randomUUID();
        String id = brokenOnView(client, "on-view-read-broken");
        String shareId = pages(id).get(0).path("share-id").asText();

        // the owner's read claims it (engagement never did), and the render fails
        MediaApi.status(client, id).statusCode(200);
        assertThat(awaitFinal(client, id).getString("status")).isEqualTo("FAILURE");
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(2));

        // the viewer's "Try again" is engagement's first claim of the link (attempt 1): the page says failed again
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, shareId, new RenderOnView(client, shareId, SharedVideo.Source.realtime,
                    UUID.fromString(id), null, null, 1, Instant.now()));
        }
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(3));
        assertThat(pages(id).get(2).path("render").asText()).isEqualTo("failed");
        assertThat(jobs.withKey(id)).hasSize(1);
    }

    @Test
    void anOnViewRequestWhoseLinkExpiresUnopenedEndsWithoutARender() throws Exception {
        UUID client = UUID.randomUUID();
        String id = request(client, onView("on-view-expired")).statusCode(200).extract().path("service-request-id");
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(1));
        sql("UPDATE media_request SET expires_at = now() - interval '1 minute' WHERE id = ?", id);

        // the status reads while it waits for the retention sweep (every second in tests) claim nothing past its end
        JsonPath done = awaitFinal(client, id);
        assertThat(done.getString("status")).isEqualTo("FAILURE");
        assertThat(done.getString("message"))
                .isEqualTo("its share link expired before it was opened; nothing was rendered");
        assertThat(done.getString("share-url")).isNull();
        Patience.await().untilAsserted(() -> assertThat(pages(id)).extracting(page -> page.path("state").asText())
                .containsExactly("ACTIVE", "EXPIRED"));
        assertThat(jobs.withKey(id)).isEmpty();
    }

    @Test
    void renderIsNowOrOnView() {
        UUID client = UUID.randomUUID();
        Map<String, Object> current = new HashMap<>(body("render-bad-1", "tiny", Map.of()));
        current.put("render", "later");
        ErrorAssertions.isError(request(client, current), 400, "VALIDATION_ERROR").body("message",
                org.hamcrest.Matchers.equalTo("field 'render' must be one of [now, on-view], got 'later'"));

        Map<String, Object> earlier = Map.of("client-request-id", "render-bad-2", "customer-id", "c", "use-case-id",
                "tiny", "user-id", "u", "render", "ON-VIEW");
        ErrorAssertions.isError(given().header("Authorization", TestTokens.bearer(client))
                .contentType(ContentType.JSON).body(earlier).post("/video/demo").then(), 400, "VALIDATION_ERROR")
                .body("message", org.hamcrest.Matchers.equalTo(
                        "field 'render' must be one of [now, on-view], got 'ON-VIEW'"));

        Map<String, Object> now = new HashMap<>(body("render-now-1", "tiny", Map.of("personalization_fields",
                Map.of("name", "Ada"))));
        now.put("render", "now");
        JsonPath accepted = request(client, now).statusCode(200).extract().jsonPath();
        assertThat(accepted.getString("message")).isEqualTo("request accepted");
        assertThat(accepted.getMap("")).as("rendered now: the interface's four fields").doesNotContainKey("share-url");
    }

    /** An on-view request whose render will fail (its image is not a picture), once its page is published. */
    private String brokenOnView(UUID client, String clientRequestId) {
        Map<String, Object> body = new HashMap<>(body(clientRequestId, "tiny", Map.of(
                "personalization_fields", Map.of("name", "Ada"),
                "global_assets", Map.of("images", List.of(assets.url("/broken.png"))))));
        body.put("render", "on-view");
        String id = request(client, body).statusCode(200).extract().path("service-request-id");
        Patience.await().untilAsserted(() -> assertThat(pages(id)).hasSize(1));
        return id;
    }

    private static Map<String, Object> onView(String clientRequestId) {
        Map<String, Object> body = new HashMap<>(body(clientRequestId, "tiny",
                Map.of("personalization_fields", Map.of("name", "Ada"))));
        body.put("render", "on-view");
        return body;
    }

    /** The request's share pages (VideoShared) as published, oldest first. */
    private List<JsonNode> pages(String id) {
        return statusEvents.withKey(id).stream()
                .filter(event -> Topics.VIDEO_SHARED.equals(event.envelope().path("type").asText()))
                .map(event -> event.data().path("videos").get(0)).toList();
    }

    /** As if its render had been lost long ago: the stale-render sweep (every second in tests) takes it again. */
    private void markStale(String id) throws Exception {
        sql("UPDATE media_request SET status = 'PROCESSING', completed_at = NULL, "
                + "updated_at = now() - interval '1 hour' WHERE id = ?", id);
    }

    private void sql(String update, String id) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(update)) {
            statement.setObject(1, UUID.fromString(id));
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    /** engagement-service's claim, keyed by {@code key} (a link's share id: its partition). */
    private static void send(KafkaProducer<String, String> producer, String key, RenderOnView view) throws Exception {
        producer.send(new ProducerRecord<>(Topics.ENGAGEMENT_RENDERS, key, CODEC.json("/test/engagement", view)))
                .get();
    }
}
