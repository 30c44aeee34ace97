package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderOutcome;
import io.pmedia.events.RenderResult;
import io.pmedia.events.Topics;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.worker.RenderWorker;
import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/** The render workers as any producer sees them: jobs in, results out, time limits, and renders that get lost. */
@QuarkusTest
class RenderWorkerTest {

    @TestHTTPResource(value = "/health/ready", management = true)
    URL ready;

    /** A minute of 720p: far more than a one-second limit allows. */
    static final String LONG = """
            {"use-case-id": "long", "name": "Long",
             "canvas": {"width": 1280, "height": 720, "fps": 30, "background": "#203040"},
             "fields": [{"name": "name", "required": true}],
             "segments": [{"id": "all", "duration": 60, "layers": [
               {"id": "t", "type": "text", "text": "Hello {{name}}", "size": 64, "fade": 1}]}]}""";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    RenderWorker worker;

    @Inject
    MediaConfig config;

    @Inject
    ObjectMapper mapper;

    @Inject
    ObjectStore store;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void template() {
        MediaApi.registerTemplate(MediaApi.TINY);
    }

    @Test
    void aRenderOverItsTimeLimitIsStoppedAndFailsWithTheLimitInTheMessage() throws Exception {
        UUID client = UUID.randomUUID();
        RenderJob job = new RenderJob(UUID.randomUUID().toString(), "test", null, client,
                UUID.randomUUID(), 1, mapper.readTree(LONG),
                new RenderInput(Map.of("name", "Ada"), null, null, null, null, null), "media/" + client + "/long/", 1);

        // the worker's renders directory is the whole application's: renders of other tests come and go in it
        Path renders = config.workDir().resolve("renders");
        java.util.Set<Path> before = entries(renders);
        long started = System.nanoTime();
        RenderResult result = worker.render(job);

        assertThat(result.status()).isEqualTo(RenderOutcome.FAILURE);
        assertThat(result.message()).isEqualTo("render exceeded its time limit of 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
        assertThat(store.size("media/" + client + "/long/video.mp4")).isEmpty();
        // this render's work directory is gone: nothing that appeared while it ran (and only it ran here) is left
        java.util.Set<Path> during = entries(renders);
        during.removeAll(before);
        Patience.await().until(() -> during.stream().noneMatch(Files::exists));
    }

    @Test
    void anotherProducerGetsItsResultOnItsReplyTopic() throws Exception {
        String replyTo = "pmedia.test.results-" + UUID.randomUUID();
        String jobId = "row-" + UUID.randomUUID();
        UUID client = UUID.randomUUID();
        String prefix = "batch/" + client + "/t-1/7/";
        RenderJob job = new RenderJob(jobId, "batch", replyTo, client, UUID.randomUUID(), 1,
                mapper.readTree(MediaApi.TINY),
                new RenderInput(Map.of("name", "Row 7"), null, null, null, null, null), prefix, null);
        CloudEvent envelope = CloudEvent.of("/pmedia/batch-service", Topics.RENDER_JOB_REQUESTED, jobId,
                mapper.valueToTree(job));

        try (KafkaEvents results = KafkaEvents.of(bootstrap, replyTo);
                KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties())) {
            producer.send(new ProducerRecord<>(Topics.RENDER_JOBS, jobId, mapper.writeValueAsString(envelope))).get();

            Patience.await().until(() -> !results.withKey(jobId).isEmpty());
            KafkaEvents.Event event = results.withKey(jobId).get(0);
            assertThat(event.envelope().get("type").asText()).isEqualTo(Topics.RENDER_JOB_COMPLETED);
            assertThat(event.data().get("producer").asText()).isEqualTo("batch");
            assertThat(event.data().get("status").asText()).isEqualTo("SUCCESS");
            assertThat(event.data().get("video-key").asText()).isEqualTo(prefix + "video.mp4");
            assertThat(event.data().get("duration-seconds").asDouble()).isBetween(1.9, 2.1);
            assertThat(store.size(prefix + "video.mp4")).get().matches(size -> size > 1000);
            assertThat(store.size(prefix + "thumbnail.jpg")).isPresent();
        }
    }

    @Test
    void aJobWhoseOutputsWouldLeaveItsClientsNamespaceIsRefused() throws Exception {
        UUID client = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        for (String prefix : List.of("batch/" + other + "/t/1/", "media/" + client + "/../" + other + "/x/",
                "elsewhere/")) {
            RenderJob job = new RenderJob(UUID.randomUUID().toString(), "batch", null, client, UUID.randomUUID(), 1,
                    mapper.readTree(MediaApi.TINY),
                    new RenderInput(Map.of("name", "Row"), null, null, null, null, null), prefix, null);
            RenderResult result = worker.render(job);
            assertThat(result.status()).as(prefix).isEqualTo(RenderOutcome.FAILURE);
            assertThat(store.size(prefix + "video.mp4")).isEmpty();
        }
    }

    @Test
    void aRequestWhoseRenderNeverCameBackIsRenderedAgainThenGivenUp() throws Exception {
        UUID client = UUID.randomUUID();
        String id = request(client, body("lost-1", "tiny", Map.of("personalization_fields", Map.of("name", "Lu"))))
                .statusCode(200).extract().path("service-request-id");
        assertThat(awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");

        try (KafkaEvents jobs = KafkaEvents.of(bootstrap, Topics.RENDER_JOBS)) {
            // As if the job had been lost after acceptance: still PROCESSING, long ago. The sweep (every second in
            // tests) submits it again.
            markStale(id, 1);
            Patience.await().until(() -> jobs.withKey(id).size() == 2);
            assertThat(awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");

            markStale(id, config.render().maxAttempts());
            var status = awaitFinal(client, id);
            assertThat(status.getString("status")).isEqualTo("FAILURE");
            assertThat(status.getString("message"))
                    .isEqualTo("render did not complete after " + config.render().maxAttempts() + " attempts");
            assertThat(jobs.withKey(id)).hasSize(2);
        }
    }

    @Test
    void theEngineIsReady() {
        assertThat(RestAssured.given().get(ready).then().statusCode(200)
                .extract().jsonPath().getString("checks.find { it.name == 'render-engine' }.status")).isEqualTo("UP");
    }

    private void markStale(String id, int attempts) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection
                        .prepareStatement("UPDATE media_request SET status = 'PROCESSING', message = 'rendering', "
                                + "video_key = NULL, thumbnail_key = NULL, completed_at = NULL, attempts = ?, "
                                + "updated_at = now() - interval '1 hour' WHERE id = ?")) {
            update.setInt(1, attempts);
            update.setObject(2, UUID.fromString(id));
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private Properties producerProperties() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    private static java.util.Set<Path> entries(Path directory) throws Exception {
        if (!Files.isDirectory(directory)) {
            return new java.util.HashSet<>();
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
        }
    }

}
