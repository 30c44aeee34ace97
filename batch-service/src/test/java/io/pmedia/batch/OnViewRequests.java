package io.pmedia.batch;

import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.StreamSupport;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;

/**
 * Plays engagement-service in render on first view: reads the rows' pages batch-service sends it on
 * {@code pmedia.batch.status}, and sends the claims of first views on {@code pmedia.engagement.renders}.
 */
final class OnViewRequests {

    private static final EventCodec CODEC = new EventCodec(new ObjectMapper().findAndRegisterModules());

    private OnViewRequests() {
    }

    static KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    static void send(KafkaProducer<String, String> producer, UUID client, String shareId, UUID taskId, int row,
            int attempt) {
        RenderOnView request = new RenderOnView(client, shareId, SharedVideo.Source.batch, null, taskId, row, attempt,
                Instant.now());
        producer.send(new ProducerRecord<>(request.topic(), request.key(), CODEC.json("/test/engagement", request)));
    }

    /** The first open of the link of the task's row, as engagement-service claims it. */
    static void open(KafkaEvents events, UUID client, String taskId, int row) {
        try (var producer = producer()) {
            send(producer, client, shareId(events, taskId, row), UUID.fromString(taskId), row, 1);
        }
    }

    static String shareId(KafkaEvents events, String taskId, int row) {
        return page(events, taskId, row).path("share-id").asText();
    }

    /** The row's page as its latest share event says. */
    static JsonNode page(KafkaEvents events, String taskId, int row) {
        List<JsonNode> pages = sharedVideos(events, taskId).stream().filter(video -> video.path("row").asInt() == row)
                .toList();
        return pages.get(pages.size() - 1);
    }

    /** Every page of the task's rows sent so far ({@code events} reads {@code pmedia.batch.status}). */
    static List<JsonNode> sharedVideos(KafkaEvents events, String taskId) {
        return events.withKey(taskId).stream()
                .filter(event -> "io.pmedia.video.shared".equals(event.envelope().path("type").asText()))
                .flatMap(event -> StreamSupport.stream(event.data().path("videos").spliterator(), false))
                .toList();
    }
}
