package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.MediaStatusChanged;
import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;

/**
 * notifier-kill: status events are published straight to {@code pmedia.media.status} (as the webhook benchmark does)
 * and the notifier is killed (kill -9) in the middle of delivering them, then started again: every event is pushed,
 * none twice under two webhook-ids.
 */
class NotifierKillScenario {

    static final EventCodec CODEC = new EventCodec(new ObjectMapper().registerModule(new JavaTimeModule()));

    @Test
    void aNotifierKilledMidStreamLosesNoPush() {
        int events = Chaos.size(300, 10_000);
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos notifier-kill", receiver.url());
            publishSuccesses(vendor, events, "notifier-kill");

            Patience.await().pollInterval(Duration.ofMillis(20))
                    .until(() -> receiver.distinct() >= events / 4);
            Chaos.pmedia("kill", "notifier");
            int atKill = receiver.distinct();
            Chaos.pmedia("start", "notifier");
            Instant back = Instant.now();
            await().atMost(Chaos.size(Duration.ofMinutes(3), Duration.ofMinutes(10)))
                    .pollInterval(Duration.ofMillis(200)).until(() -> receiver.distinct() >= events);
            double recovery = Duration.between(back, Instant.now()).toMillis() / 1000.0;

            String line = Chaos.report("notifier-kill", events, events, receiver.distinct(),
                    events - receiver.distinct(), receiver.requestsPushedTwice(), recovery,
                    "killed after " + atKill + " pushes, " + receiver.redelivered() + " redelivered with the same "
                            + "webhook-id");
            assertThat(receiver.distinct()).as(line).isEqualTo(events);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("start", "notifier");
        }
    }

    /**
     * Publishes {@code events} SUCCESS status events of {@code vendor} straight to pmedia.media.status, as the webhook
     * benchmark does: each asks the notifier for one video push (client-request-id {@code <scenario>-<i>}).
     */
    static void publishSuccesses(Vendor vendor, int events, String scenario) {
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < events; i++) {
                MediaStatusChanged success = new MediaStatusChanged(vendor.id(), UUID.randomUUID(), scenario + "-" + i,
                        "u-" + i, "c", "chaos", null, MediaStatus.SUCCESS, null,
                        "https://cdn.example.net/videos/" + i + ".mp4", "https://cdn.example.net/videos/" + i + ".jpg",
                        null);
                CloudEvent event = CODEC.envelope("/chaos/" + scenario, success);
                producer.send(new ProducerRecord<>(success.topic(), success.key(), CODEC.json(event)));
            }
            producer.flush();
        }
    }

    /** A producer of what media-service's API role publishes, as its KafkaUser (it may write pmedia.media.status). */
    static KafkaProducer<String, String> producer() {
        Properties properties = Stack.kafka("pmedia-media-api");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
    }
}
