package io.pmedia.engagement;

import static io.restassured.RestAssured.given;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.EventPayload;
import io.pmedia.events.RenderJob;
import io.pmedia.events.SharedVideo;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource;
import io.pmedia.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * What engagement-service's tests share: videos shared through the real broker (awaited until their page answers),
 * viewers who load a page and send its beacons with the page's view token, and the vendor's analytics. Every wait is
 * the suite's {@link Patience}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class EngagementFixture extends TestInfrastructure {

    /** How long a blocking call of the service under test may take (the suite's one bound). */
    public static final Duration WAIT = Patience.BOUND;
    public static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    public static final EventCodec CODEC = new EventCodec(JSON);
    public static final String BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
            + " Chrome/156.0 Safari/537.36";
    public static final SharedVideo.Cta CTA = new SharedVideo.Cta("See your offer", "https://shop.example/offer");
    private static final Pattern TOKEN = Pattern.compile("data-view-token=\"([^\"]*)\"");

    protected final UUID vendor = UUID.randomUUID();
    protected final UUID other = UUID.randomUUID();
    private final List<KafkaEvents> listeners = new java.util.ArrayList<>();
    private KafkaProducer<String, String> producer;

    @BeforeAll
    void startProducer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer = new KafkaProducer<>(props);
    }

    @AfterAll
    void stopProducer() {
        producer.close();
        listeners.forEach(KafkaEvents::close);
    }

    /** Reads {@code topic} from its beginning for this class's tests (closed after them). */
    protected KafkaEvents listen(String topic) {
        KafkaEvents events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), topic);
        listeners.add(events);
        return events;
    }

    /** A viewer: an address (as the gateway passes it on) and a browser. */
    public record Viewer(String address, String userAgent) {

        public static Viewer at(String address) {
            return new Viewer(address, BROWSER);
        }

        /** A viewer at an address of its own (in the documentation range, never routed). */
        public static Viewer somebody() {
            UUID id = UUID.randomUUID();
            return at(String.format("2001:db8:%x:%x::1", id.getMostSignificantBits() & 0xffff,
                    id.getLeastSignificantBits() & 0xffff));
        }
    }

    /** One page view: the page as a viewer loaded it, and the token its beacons carry. */
    public record PageView(String share, Viewer viewer, String token) {

        /** The page view's beacon of {@code type}, with {@code extra} fields. */
        public Response send(String type, Object... extra) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", type);
            body.put("session", token.contains(".") ? token.substring(0, token.indexOf('.')) : "no-token-session");
            body.put("token", token);
            for (int i = 0; i < extra.length; i += 2) {
                body.put((String) extra[i], extra[i + 1]);
            }
            return beacon(share, viewer, body);
        }

        /** The same page view's beacon with another token in it. */
        public PageView withToken(String other) {
            return new PageView(share, viewer, other);
        }
    }

    /** The page of {@code share} as {@code viewer} loads it (200), with its view token. */
    public static PageView open(String share, Viewer viewer) {
        return open(share, viewer, "");
    }

    /** {@link #open(String, Viewer)} for the page at {@code suffix} ("" or "/embed"). */
    public static PageView open(String share, Viewer viewer, String suffix) {
        String page = given().header("Accept", "text/html").header("User-Agent", viewer.userAgent())
                .header("X-Forwarded-For", viewer.address()).get("/v/" + share + suffix).then().statusCode(200)
                .extract().asString();
        Matcher token = TOKEN.matcher(page);
        if (!token.find()) {
            throw new AssertionError("the page of " + share + " carries no view token: " + page);
        }
        return new PageView(share, viewer, token.group(1));
    }

    /** A beacon as the page's script sends it (a JSON text). */
    public static Response beacon(String share, Viewer viewer, Map<String, Object> body) {
        try {
            return given().header("User-Agent", viewer.userAgent()).header("X-Forwarded-For", viewer.address())
                    .contentType(ContentType.TEXT).body(JSON.writeValueAsString(body))
                    .post("/v/" + share + "/events");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The vendor's report of a realtime request's video, once it answers 200 (null before). */
    public static JsonPath analytics(UUID client, UUID request) {
        var answer = given().auth().oauth2(TestTokens.client(client)).get("/analytics/videos/" + request);
        return answer.statusCode() == 200 ? answer.jsonPath() : null;
    }

    /** The report once {@code until} holds of it. */
    public static JsonPath awaitReport(UUID client, UUID request, Predicate<JsonPath> until) {
        return Patience.await().until(() -> analytics(client, request),
                report -> report != null && until.test(report));
    }

    /** A live realtime video with a call to action, shared through Kafka and awaited until its page plays. */
    protected String shared(UUID request) {
        return shared(vendor, request, "Hello", CTA, Instant.now().plus(1, ChronoUnit.DAYS), SharedVideo.State.ACTIVE);
    }

    /**
     * A realtime video shared through Kafka, awaited until its page answers as its state says; its share id.
     * {@code cta} null: a template without a call to action.
     */
    protected String shared(UUID client, UUID request, String title, SharedVideo.Cta cta, Instant expiresAt,
            SharedVideo.State state) {
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(video(client, request, share, title, cta, expiresAt, state));
        if (state == SharedVideo.State.ACTIVE && expiresAt.isAfter(Instant.now())) {
            Patience.await().until(() -> given().redirects().follow(false)
                    .get("/v/" + share + "/video.mp4").statusCode() == 302);
        } else {
            // A link that does not play answers 404 before and after: wait for the projection to hold it.
            Patience.await().until(() -> rowExists(share));
        }
        return share;
    }

    public static SharedVideo video(UUID client, UUID request, String share, String title, SharedVideo.Cta cta,
            Instant expiresAt, SharedVideo.State state) {
        return new SharedVideo(client, SharedVideo.Source.realtime, request, null, null, UUID.randomUUID(), 1,
                "greeting", List.of(new SharedVideo.Video(share, state, null, "u-1", title, cta,
                        new SharedVideo.Branding(null, "#112233"), "media/" + client + "/" + request + "/video.mp4",
                        "media/" + client + "/" + request + "/thumbnail.jpg", null, 1280, 720, 10.0, Instant.now(),
                        expiresAt)));
    }

    /** A batch row's link rendered on view, its page without a video; its share id once the projection has it. */
    protected String onView(UUID task, int row, SharedVideo.Render render) {
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(rowPage(task, share, row, null, render));
        Patience.await().until(() -> rowExists(share));
        return share;
    }

    /** The page of a batch row's link as batch-service sends it: with its video, or without (rendered on view). */
    protected SharedVideo rowPage(UUID task, String share, int row, String videoKey, SharedVideo.Render render) {
        return rowPage(task, share, row, videoKey, render, "Hello");
    }

    protected SharedVideo rowPage(UUID task, String share, int row, String videoKey, SharedVideo.Render render,
            String title) {
        return rowPage(task, share, row, videoKey, render, title, UUID.randomUUID());
    }

    /** A batch row's link rendered on view, of version 1 of {@code template}; its share id once projected. */
    protected String onView(UUID task, int row, UUID template) {
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(rowPage(task, share, row, null, SharedVideo.Render.ON_VIEW, "Hello", template));
        Patience.await().until(() -> rowExists(share));
        return share;
    }

    protected SharedVideo rowPage(UUID task, String share, int row, String videoKey, SharedVideo.Render render,
            String title, UUID template) {
        return new SharedVideo(vendor, SharedVideo.Source.batch, null, task, "spring", template, 1,
                "greeting", List.of(new SharedVideo.Video(share, SharedVideo.State.ACTIVE, row, "u-" + row,
                        title, CTA, null, videoKey,
                        videoKey == null ? null : videoKey.replace("video.mp4", "thumbnail.jpg"), null, 1280, 720,
                        null, Instant.now(), Instant.now().plus(1, ChronoUnit.DAYS), render,
                        videoKey == null ? streamKey(task, row) : null)));
    }

    /** Where the render of a batch row rendered on view writes its stream, as batch-service names it. */
    protected String streamKey(UUID task, int row) {
        return "batch/" + vendor + "/" + task + "/" + row + "/" + RenderJob.STREAM_PLAYLIST;
    }

    /** One column of a link's projection row as text (null without the row). */
    protected static String column(String share, String column) {
        try (var db = PostgresTestResource.TestDatabase.fromEnvironment().connect("pmedia_engagement_test");
                var query = db.prepareStatement("SELECT " + column + " FROM shared_video WHERE share_id = ?")) {
            query.setString(1, share);
            var rows = query.executeQuery();
            return rows.next() ? rows.getString(1) : null;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    protected static boolean rowExists(String share) {
        try (var db = PostgresTestResource.TestDatabase.fromEnvironment().connect("pmedia_engagement_test");
                var query = db.prepareStatement("SELECT 1 FROM shared_video WHERE share_id = ?")) {
            query.setString(1, share);
            return query.executeQuery().next();
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    protected <T extends EventPayload> T publish(T payload) {
        send(payload, CODEC.envelope("/test", payload));
        return payload;
    }

    protected void send(EventPayload payload, CloudEvent envelope) {
        try {
            producer.send(new ProducerRecord<>(payload.topic(), payload.key(), CODEC.json(envelope))).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
