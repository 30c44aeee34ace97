package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.pmedia.system.Chaos.PushReceiver;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;

/**
 * two-notifiers: two notifier replicas share the deliveries; one is killed (kill -9) mid-stream. The survivor takes
 * over the killed one's leases: every event is pushed, none under two webhook-ids (the receiver dedupes retries by
 * webhook-id, as Standard Webhooks asks).
 */
class TwoNotifiersScenario {

    @Test
    void theSurvivorTakesOverTheKilledReplicasDeliveries() {
        int events = Chaos.size(300, 10_000);
        Chaos.pmedia("start", "notifier-2");
        try (PushReceiver receiver = new PushReceiver()) {
            Vendor vendor = Stack.onboard("chaos two-notifiers", receiver.url());
            NotifierKillScenario.publishSuccesses(vendor, events, "two-notifiers");

            Patience.await().pollInterval(Duration.ofMillis(20))
                    .until(() -> receiver.distinct() >= events / 4);
            Chaos.pmedia("kill", "notifier");
            Instant killed = Instant.now();
            int atKill = receiver.distinct();
            await().atMost(Chaos.size(Duration.ofMinutes(3), Duration.ofMinutes(10)))
                    .pollInterval(Duration.ofMillis(200)).until(() -> receiver.distinct() >= events);
            double recovery = Duration.between(killed, Instant.now()).toMillis() / 1000.0;

            String line = Chaos.report("two-notifiers", events, events, receiver.distinct(),
                    events - receiver.distinct(), receiver.requestsPushedTwice(), recovery,
                    "notifier killed after " + atKill + " pushes, notifier-2 finished alone; "
                            + receiver.redelivered() + " redelivered with the same webhook-id");
            assertThat(receiver.distinct()).as(line).isEqualTo(events);
            assertThat(receiver.requestsPushedTwice()).as(line).isZero();
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("start", "notifier");
            Chaos.pmedia("stop", "notifier-2");
        }
    }
}
