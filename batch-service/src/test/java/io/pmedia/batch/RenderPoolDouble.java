package io.pmedia.batch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.events.Topics;

/**
 * Plays one render worker with one slot the way media-service's render lanes take batch jobs (worker/RenderLanes,
 * docs/media.md "Render lanes"): a member of the workers' consumer group ({@code pmedia-render-workers}) on the batch
 * lane, fetching at most one job per poll, holding at most one job lined up beside the one it renders (the consumer is
 * paused otherwise), taking jobs in the order the broker hands them over, and committing a job's offset once it has
 * answered it. A render takes {@code renderTime}; the answer is a success. Unlike {@link RenderWorkerDouble} it is
 * capacity, not a tap: the queue in front of it is what the test is about.
 */
final class RenderPoolDouble implements AutoCloseable {

    static final String WORKERS_GROUP = "pmedia-render-workers";
    private static final Duration TURN = Duration.ofMillis(10);

    private record Job(TopicPartition partition, long offset, JsonNode data) {
    }

    private final Duration renderTime;
    private final KafkaConsumer<String, String> consumer;
    private final KafkaProducer<String, String> producer;
    private final Thread thread;
    private volatile boolean running = true;

    RenderPoolDouble(String bootstrap, Duration renderTime) {
        this.renderTime = renderTime;
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, WORKERS_GROUP);
        consumerProps.put(ConsumerConfig.CLIENT_ID_CONFIG, "render-batch-" + UUID.randomUUID());
        // Jobs of earlier test classes on the shared broker are not this test's work.
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        consumerProps.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        consumer = new KafkaConsumer<>(consumerProps);
        producer = new KafkaProducer<>(producerProps);
        consumer.subscribe(List.of(Topics.RENDER_JOBS_BATCH));
        // Joined, at the end of each partition, before any job of the test is published.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (consumer.assignment().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the render pool double got no partition of "
                        + Topics.RENDER_JOBS_BATCH);
            }
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.assignment().forEach(partition -> consumer.position(partition));
        consumer.commitSync();
        thread = new Thread(this::work, "render-pool-double");
        thread.setDaemon(true);
        thread.start();
    }

    /** The slot: one job rendering, one lined up at most, the next fetched only when nothing is lined up. */
    private void work() {
        ArrayDeque<Job> lined = new ArrayDeque<>();
        Job rendering = null;
        long endsAt = 0;
        try (consumer) {
            while (running) {
                if (rendering != null && System.nanoTime() >= endsAt) {
                    producer.send(RenderWorkerDouble.result(rendering.data(), null, renderTime.toMillis()));
                    producer.flush();
                    consumer.commitSync(Map.of(rendering.partition(), new OffsetAndMetadata(rendering.offset() + 1)));
                    rendering = null;
                }
                if (rendering == null && !lined.isEmpty()) {
                    rendering = lined.poll();
                    endsAt = System.nanoTime() + renderTime.toNanos();
                }
                if (lined.isEmpty()) {
                    consumer.resume(consumer.assignment());
                } else {
                    consumer.pause(consumer.assignment());
                }
                // The poll's timeout is the slot's clock: it returns early with a job, or after one turn.
                for (ConsumerRecord<String, String> record : consumer.poll(TURN)) {
                    JsonNode data = RenderWorkerDouble.parse(record.value()).path("data");
                    if ("batch".equals(data.path("producer").asText())) {
                        lined.add(new Job(new TopicPartition(record.topic(), record.partition()), record.offset(),
                                data));
                    }
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
        producer.close(Duration.ofSeconds(5));
    }
}
