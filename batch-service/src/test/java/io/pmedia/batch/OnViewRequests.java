package io.pmedia.batch;

import java.time.Instant;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.pmedia.testing.KafkaTestResource;

/** Plays engagement-service's claims of first views on {@code pmedia.engagement.renders}. */
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
}
