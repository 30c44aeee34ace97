package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * graceful-shutdown: what Kubernetes does to every pod, SIGTERM, sent to a render worker mid-render and to the notifier
 * mid-delivery. The render in hand is finished (or handed back) and the request ends SUCCESS with one push; the
 * notifier's in-flight deliveries are finished or released, so every event is pushed once it is back, none under two
 * webhook-ids, and sooner than a killed notifier's leases would allow.
 */
class GracefulShutdownScenario {

    @Test
    void aRenderWorkerStoppedMidRenderLosesNothingAndDoesNothingTwice() {
        Chaos.pmedia(Map.of("PMEDIA_MEDIA_ROLE", "api"), "restart", "media");
        Chaos.pmedia("start", "media-worker-1");
        Chaos.pmedia("start", "media-worker-2");
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos graceful worker", receiver.url());
            String id = Stack.render(vendor, Map.of("personalization_fields", Map.of("name", "Ada")));
            String[] renderer = new String[1];
            Patience.await().pollInterval(Duration.ofMillis(20))
                    .until(() -> (renderer[0] = WorkerKillScenario.rendering().orElse(null)) != null);
            Instant stopping = Instant.now();
            Chaos.pmedia("stop", renderer[0]);
            double stopSeconds = Duration.between(stopping, Instant.now()).toMillis() / 1000.0;
            JsonPath status = Stack.finalStatus(vendor, id);
            double recovery = Duration.between(stopping, Instant.now()).toMillis() / 1000.0;
            Patience.await().until(() -> receiver.distinct() >= 1);
            String line = Chaos.report("graceful-shutdown (render worker)", 1,
                    "PROCESSING".equals(status.getString("status")) ? 0 : 1, receiver.distinct(),
                    "SUCCESS".equals(status.getString("status")) ? 0 : 1, receiver.requestsPushedTwice(), recovery,
                    "SIGTERM to " + renderer[0] + " mid-render; it stopped in " + stopSeconds + " s");
            assertThat(status.getString("status")).as(line).isEqualTo("SUCCESS");
            assertThat(receiver.distinct()).as(line).isEqualTo(1);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("stop", "media-worker-1");
            Chaos.pmedia("stop", "media-worker-2");
            Chaos.pmedia("restart", "media");
        }
    }

    @Test
    void theNotifierStoppedMidDeliveryReleasesItsDeliveries() {
        int events = Chaos.size(300, 3_000);
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos graceful notifier", receiver.url());
            NotifierKillScenario.publishSuccesses(vendor, events, "graceful-shutdown");
            Patience.await().pollInterval(Duration.ofMillis(20))
                    .until(() -> receiver.distinct() >= events / 4);
            Chaos.pmedia("stop", "notifier");
            int atStop = receiver.distinct();
            Chaos.pmedia("start", "notifier");
            Instant back = Instant.now();
            await().atMost(Chaos.size(Duration.ofMinutes(3), Duration.ofMinutes(10)))
                    .pollInterval(Duration.ofMillis(200)).until(() -> receiver.distinct() >= events);
            double recovery = Duration.between(back, Instant.now()).toMillis() / 1000.0;
            String line = Chaos.report("graceful-shutdown (notifier)", events, events, receiver.distinct(),
                    events - receiver.distinct(), receiver.requestsPushedTwice(), recovery,
                    "SIGTERM after " + atStop + " pushes; " + receiver.redelivered()
                            + " redelivered with the same webhook-id");
            assertThat(receiver.distinct()).as(line).isEqualTo(events);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("start", "notifier");
        }
    }
}
