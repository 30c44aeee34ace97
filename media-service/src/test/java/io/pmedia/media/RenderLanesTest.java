package io.pmedia.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.events.CloudEvent;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderLane;
import io.pmedia.events.Topics;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.engine.RenderEngines;
import io.pmedia.media.render.store.StoreFonts;
import io.pmedia.media.worker.RenderLanes;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The render lanes with the real worker, the real broker and FFmpeg: realtime jobs go before every batch job that
 * waits, and batch jobs fill the slots realtime leaves idle (the test profile runs one slot).
 */
@QuarkusTest
class RenderLanesTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    RenderLanes lanes;

    @Inject
    ObjectMapper mapper;

    @Inject
    MediaConfig config;

    @Inject
    StoreFonts fonts;

    @Test
    void aRealtimeJobSubmittedBehindAHundredQueuedBatchJobsStartsBeforeThem() throws Exception {
        // One partition: the results' offsets are the order in which the (single) slot ended the jobs.
        String replyTo = replyTopic();
        UUID client = UUID.randomUUID();
        try (KafkaEvents results = KafkaEvents.of(bootstrap, replyTo);
                KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties())) {
            // A batch render that keeps the only slot busy for three seconds (a minute of 720p, stopped at its limit).
            publish(producer, job("slow", RenderWorkerTest.LONG, Map.of("name", "Ada"), RenderLane.BATCH, replyTo,
                    client, 3));
            Patience.await().until(() -> lanes.rendering(RenderLane.BATCH) == 1);

            // Behind it, 100 batch jobs, then one realtime job. Each fails at once (the required name is missing),
            // so only the order in which the slot takes them matters.
            for (int i = 1; i <= 100; i++) {
                publish(producer, job("batch-" + i, MediaApi.TINY, Map.of(), RenderLane.BATCH, replyTo, client, null));
            }
            publish(producer, job("realtime", MediaApi.TINY, Map.of(), RenderLane.REALTIME, replyTo, client, null));
            producer.flush();
            assertThat(lanes.rendering(RenderLane.BATCH)).as("the slow render still runs").isEqualTo(1);

            Patience.await().until(() -> results.matching(event -> true).size() == 102);
            List<String> order = results.matching(event -> true).stream().map(KafkaEvents.Event::key).toList();
            assertThat(order.get(0)).isEqualTo("slow");
            assertThat(order.get(1)).as("the realtime job waited behind the one batch render running, no more")
                    .isEqualTo("realtime");
            assertThat(order.subList(2, 102)).as("the batch lane filled the slot once realtime was served")
                    .hasSize(100).allMatch(key -> key.startsWith("batch-"));
            assertThat(results.withKey("realtime").get(0).data().path("message").asText())
                    .contains("personalization field 'name'");
        }
    }

    /**
     * A render that throws an error, not an exception (a native library that did not load, a class missing, memory run
     * out), ends its job FAILURE with a result, and the slot renders the next job: it once ended the slot's thread
     * silently, and every later job waited unanswered.
     */
    @Test
    void aRenderThatThrowsAnErrorFailsItsJobAndTheSlotRendersTheNext() throws Exception {
        String replyTo = replyTopic();
        UUID client = UUID.randomUUID();
        AtomicBoolean broken = new AtomicBoolean(true);
        QuarkusMock.installMockForType(new RenderEngines(config, fonts) {
            @Override
            public RenderEngine engine() {
                if (broken.get()) {
                    throw new UnsatisfiedLinkError("test: the engine's native library did not load");
                }
                return super.engine();
            }
        }, RenderEngines.class);
        try (KafkaEvents results = KafkaEvents.of(bootstrap, replyTo);
                KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties())) {
            for (String id : List.of("broken-1", "broken-2")) {
                publish(producer, job(id, MediaApi.TINY, Map.of("name", "Ada"), RenderLane.REALTIME, replyTo, client,
                        null));
            }
            producer.flush();
            Patience.await().until(() -> results.matching(event -> true).size() == 2);
            assertThat(results.matching(event -> true)).as("each job answered, one after the other on one slot")
                    .allMatch(event -> event.data().path("status").asText().equals("FAILURE"));

            broken.set(false);
            publish(producer, job("mended", MediaApi.TINY, Map.of("name", "Ada"), RenderLane.REALTIME, replyTo,
                    client, null));
            producer.flush();
            Patience.await().until(() -> results.withKey("mended").size() == 1);
            assertThat(results.withKey("mended").get(0).data().path("status").asText()).isEqualTo("SUCCESS");
        }
    }

    /** A reply topic of its own with one partition. */
    private String replyTopic() throws Exception {
        String replyTo = "pmedia.test.lanes-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(replyTo, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return replyTo;
    }

    private RenderJob job(String id, String template, Map<String, String> fields, RenderLane lane, String replyTo,
            UUID client, Integer timeLimit) throws Exception {
        return new RenderJob(id, "test", replyTo, client, UUID.randomUUID(), 1, mapper.readTree(template),
                new RenderInput(fields, null, null, null, null, null), "batch/" + client + "/" + id + "/", timeLimit,
                lane, false);
    }

    private void publish(KafkaProducer<String, String> producer, RenderJob job) throws Exception {
        CloudEvent envelope = CloudEvent.of("/test", Topics.RENDER_JOB_REQUESTED, job.jobId(),
                mapper.valueToTree(job));
        producer.send(new ProducerRecord<>(job.topic(), job.jobId(), mapper.writeValueAsString(envelope)));
    }

    private Properties producerProperties() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }
}
