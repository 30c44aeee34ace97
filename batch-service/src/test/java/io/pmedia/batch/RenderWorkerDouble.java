package io.pmedia.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.events.Topics;

/**
 * Plays media-service's render workers on the real broker: reads the batch lane ({@code pmedia.render.jobs.batch})
 * and answers each batch job on its {@code reply-to} as {@code outcome} decides (the real workers and FFmpeg are
 * media-service's tests and the end-to-end walk-through). Keeps every job it saw. While {@link #hold() held} it answers
 * nothing until told which jobs to {@link #release}, so a test decides when rows come back.
 */
final class RenderWorkerDouble implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** An outcome that answers nothing: the job is lost. */
    static final String DROP = "\u0000drop";

    final List<JsonNode> jobs = new CopyOnWriteArrayList<>();
    private final List<JsonNode> held = new ArrayList<>();
    private final Function<JsonNode, String> outcome;
    private final KafkaProducer<String, String> producer;
    private final Thread thread;
    private volatile boolean running = true;
    private boolean holding;

    /** {@code outcome}: the job's data -> null to succeed, a failure message, or {@link #DROP} to answer nothing. */
    RenderWorkerDouble(String bootstrap, Function<JsonNode, String> outcome) {
        this(bootstrap, outcome, Topics.RENDER_JOBS_BATCH);
    }

    /** A double of the workers reading {@code lane} (the batch lane, or the realtime lane of renders on view). */
    RenderWorkerDouble(String bootstrap, Function<JsonNode, String> outcome, String lane) {
        this.outcome = outcome;
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "worker-double-" + UUID.randomUUID());
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        consumerProps.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps);
        producer = new KafkaProducer<>(producerProps);
        consumer.subscribe(List.of(lane));
        // Joined before any job of the test is published: "latest" must not skip them.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (consumer.assignment().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the worker double got no partition of " + lane);
            }
            consumer.poll(Duration.ofMillis(100));
        }
        thread = new Thread(() -> {
            try (consumer) {
                while (running) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                        JsonNode data = parse(record.value()).path("data");
                        if ("batch".equals(data.path("producer").asText())) {
                            jobs.add(data);
                            take(data);
                        }
                    }
                }
            }
        }, "render-worker-double");
        thread.setDaemon(true);
        thread.start();
    }

    /** Answers nothing from now on until {@link #release} or {@link #answerAll}. */
    synchronized void hold() {
        holding = true;
    }

    /** Answers the held jobs that {@code which} selects; returns how many. */
    synchronized int release(Predicate<JsonNode> which) {
        List<JsonNode> now = held.stream().filter(which).toList();
        held.removeAll(now);
        now.forEach(this::answer);
        producer.flush();
        return now.size();
    }

    /** Answers every held job, and every job from now on as it comes. */
    synchronized void answerAll() {
        holding = false;
        release(job -> true);
    }

    synchronized int heldCount() {
        return held.size();
    }

    private synchronized void take(JsonNode job) {
        if (holding) {
            held.add(job);
        } else {
            answer(job);
        }
    }

    private void answer(JsonNode data) {
        String failure = outcome.apply(data);
        if (DROP.equals(failure)) {
            return;
        }
        producer.send(result(data, failure, 800));
    }

    /** The answer of a render worker to {@code job}: a success when {@code failure} is null. */
    static ProducerRecord<String, String> result(JsonNode job, String failure, long renderMillis) {
        String jobId = job.path("job-id").asText();
        String prefix = job.path("output-prefix").asText();
        ObjectNode result = JSON.createObjectNode().put("job-id", jobId).put("producer", "batch")
                .put("status", failure == null ? "SUCCESS" : "FAILURE")
                .put("message", failure == null ? "video ready" : failure)
                .put("video-key", failure == null ? prefix + "video.mp4" : null)
                .put("thumbnail-key", failure == null ? prefix + "thumbnail.jpg" : null)
                .put("render-millis", renderMillis);
        ObjectNode envelope = JSON.createObjectNode().put("specversion", "1.0")
                .put("id", UUID.randomUUID().toString()).put("source", "/test/worker")
                .put("type", "io.pmedia.render.job.completed").put("subject", jobId);
        envelope.set("data", result);
        return new ProducerRecord<>(job.path("reply-to").asText(), jobId, envelope.toString());
    }

    static JsonNode parse(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            return JSON.createObjectNode();
        }
    }

    /** The jobs of the task {@code taskId} this double saw, in the order it saw them. */
    List<JsonNode> jobsOf(String taskId) {
        return jobs.stream().filter(job -> job.path("job-id").asText().startsWith(taskId + "/")).toList();
    }

    /** Row number of a job ({@code <task-id>/<row>}). */
    static int row(JsonNode job) {
        String id = job.path("job-id").asText();
        return Integer.parseInt(id.substring(id.indexOf('/') + 1));
    }

    static String task(JsonNode job) {
        String id = job.path("job-id").asText();
        return id.substring(0, id.indexOf('/'));
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
        producer.close(Duration.ofSeconds(5));
    }
}
