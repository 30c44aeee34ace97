package io.pmedia.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads a topic from its beginning in the background and keeps every CloudEvent envelope it sees, so a test can
 * await the events it caused (match them on their own ids: the topic may hold other tests' events too).
 */
public final class KafkaEvents implements AutoCloseable {

    /** One record: its key, its parsed CloudEvent envelope, and its headers' content type. */
    public record Event(String key, JsonNode envelope, String contentType) {

        public JsonNode data() {
            return envelope.path("data");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Event> seen = new CopyOnWriteArrayList<>();
    private final Thread poller;
    private volatile boolean running = true;

    private KafkaEvents(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-probe-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500");
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
        consumer.subscribe(List.of(topic));
        poller = new Thread(() -> {
            try (consumer) {
                while (running) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        var header = record.headers().lastHeader("content-type");
                        seen.add(new Event(record.key(), parse(record.value()),
                                header == null ? null : new String(header.value())));
                    }
                }
            }
        }, "kafka-events-" + topic);
        poller.setDaemon(true);
        poller.start();
    }

    /** Starts reading {@code topic} from the beginning. */
    public static KafkaEvents of(String bootstrap, String topic) {
        return new KafkaEvents(bootstrap, topic);
    }

    public List<Event> matching(Predicate<Event> filter) {
        List<Event> result = new ArrayList<>();
        for (Event event : seen) {
            if (filter.test(event)) {
                result.add(event);
            }
        }
        return result;
    }

    public List<Event> withKey(String key) {
        return matching(event -> key.equals(event.key()));
    }

    @Override
    public void close() {
        running = false;
    }

    private static JsonNode parse(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            return JSON.getNodeFactory().textNode(value);
        }
    }
}
