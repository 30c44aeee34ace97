package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

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

import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderOutcome;
import io.pmedia.events.RenderResult;
import io.pmedia.events.Topics;
import io.pmedia.media.service.MediaRequests;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * Admission of realtime renders on view (docs/media.md, "Render on first view"), over the real database and broker:
 * with room for one render on view in flight (one worker, one per worker), three first views claim three renders, one
 * job goes out and the other two wait, claimed, without a stream; each end of the render in flight (a success, then a
 * failure) sends the next one first claimed. Nothing renders here (the lanes are off): the results are played on the
 * results topic.
 */
@QuarkusTest
@TestProfile(OnViewAdmissionTest.OneInFlight.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OnViewAdmissionTest {

    public static class OneInFlight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pmedia.media.on-view.workers", "1", "pmedia.media.on-view.renders-per-worker", "1",
                    "pmedia.media.render.lanes.enabled", "false");
        }
    }

    private static final EventCodec CODEC = new EventCodec(new ObjectMapper().findAndRegisterModules());

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    AgroalDataSource dataSource;

    private KafkaEvents jobs;

    @BeforeAll
    void setUp() {
        jobs = KafkaEvents.of(bootstrap, Topics.RENDER_JOBS);
    }

    @BeforeEach
    void templates() {
        MediaApi.registerTemplate(MediaApi.TINY);
    }

    @AfterAll
    void tearDown() {
        jobs.close();
    }

    @Test
    void firstViewsBeyondTheBoundWaitAndGoOutAsRendersInFlightEnd() throws Exception {
        UUID client = UUID.randomUUID();
        List<String> ids = List.of(onView(client, "admit-a"), onView(client, "admit-b"), onView(client, "admit-c"));
        String a = ids.get(0);
        String b = ids.get(1);
        String c = ids.get(2);

        // The owner's status reads are first views: all three are claimed, only the first goes out.
        JsonPath first = MediaApi.status(client, a).statusCode(200).extract().jsonPath();
        assertThat(first.getString("stream-url")).as("a's render is on its way").isNotNull();
        for (String waiting : List.of(b, c)) {
            JsonPath status = MediaApi.status(client, waiting).statusCode(200).extract().jsonPath();
            assertThat(status.getString("status")).isEqualTo("PROCESSING");
            assertThat(status.getString("stream-url")).as("%s waits for room, without a stream", waiting).isNull();
        }
        Patience.await().until(() -> jobs.withKey(a).size() == 1);
        assertThat(claimed(a)).isTrue();
        assertThat(claimed(b)).isTrue();
        assertThat(claimed(c)).isTrue();
        assertThat(admitted(b)).as("b waits while a is in flight").isFalse();
        assertThat(admitted(c)).isFalse();
        assertThat(jobs.withKey(b)).isEmpty();

        // a's render ends: b, claimed before c, goes out; c still waits.
        result(a, RenderOutcome.SUCCESS);
        assertThat(awaitFinal(client, a).getString("status")).isEqualTo("SUCCESS");
        Patience.await().until(() -> jobs.withKey(b).size() == 1);
        assertThat(MediaApi.status(client, b).extract().jsonPath().getString("stream-url")).isNotNull();
        assertThat(admitted(c)).as("c waits while b is in flight").isFalse();
        assertThat(jobs.withKey(c)).isEmpty();

        // b's render fails: that frees its slot too, and c goes out.
        result(b, RenderOutcome.FAILURE);
        assertThat(awaitFinal(client, b).getString("status")).isEqualTo("FAILURE");
        Patience.await().until(() -> jobs.withKey(c).size() == 1);
        assertThat(admitted(c)).isTrue();
        assertThat(jobs.withKey(a)).hasSize(1);
        assertThat(jobs.withKey(b)).hasSize(1);
    }

    private static String onView(UUID client, String clientRequestId) {
        Map<String, Object> body = new HashMap<>(body(clientRequestId, "tiny",
                Map.of("personalization_fields", Map.of("name", "Ada"))));
        body.put("render", "on-view");
        return request(client, body).statusCode(200).extract().path("service-request-id");
    }

    private boolean claimed(String id) throws Exception {
        return timestamp(id, "render_claimed_at");
    }

    private boolean admitted(String id) throws Exception {
        return timestamp(id, "render_admitted_at");
    }

    private boolean timestamp(String id, String column) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT " + column + " IS NOT NULL FROM media_request WHERE id = ?")) {
            statement.setObject(1, UUID.fromString(id));
            try (ResultSet row = statement.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getBoolean(1);
            }
        }
    }

    /** A worker's answer to the request's job, on the results topic. */
    private void result(String id, RenderOutcome outcome) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        boolean success = outcome == RenderOutcome.SUCCESS;
        RenderResult result = new RenderResult(id, MediaRequests.PRODUCER, outcome, success ? null : "render failed",
                success ? "media/x/" + id + "/video.mp4" : null, null, 1.0, 320, 180, 800L);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            producer.send(new ProducerRecord<>(Topics.RENDER_RESULTS, id, CODEC.json("/test/worker", result))).get();
        }
    }
}
