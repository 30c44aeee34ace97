package io.pmedia.campaign;

import static io.pmedia.campaign.ScheduleLifecycleTest.schedule;
import static io.pmedia.campaign.ScheduleLifecycleTest.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.campaign.service.TransitionScheduler;
import io.pmedia.testing.KafkaEvents;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A replica that starts after transitions came due (the service was down) fires them at once, in order, each with
 * its event. The scheduler is off in this profile until the test starts it, as start-up would.
 */
@QuarkusTest
@TestProfile(MissedTransitionsTest.SchedulerOff.class)
class MissedTransitionsTest {

    public static class SchedulerOff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pmedia.campaign.scheduler.enabled", "false");
        }
    }

    @Inject
    TransitionScheduler scheduler;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void transitionsMissedWhileDownFireOnStart() {
        UUID client = UUID.randomUUID();
        // The first calls of a fresh application are slow; the window below is short on purpose.
        schedule(client, "warm-up", Instant.now().plusSeconds(3600), Instant.now().plusSeconds(7200));
        Instant start = Instant.now().plusMillis(1500);

        Instant end = start.plusMillis(700);
        schedule(client, "missed", start, end).statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("SCHEDULED"));

        await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().isAfter(end.plusMillis(200)));
        assertThat(scheduler.running()).isFalse();
        assertThat(status(client, "missed")).isEqualTo("SCHEDULED");

        try (KafkaEvents events = KafkaEvents.of(bootstrap, "pmedia.campaign.status")) {
            scheduler.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> "ENDED".equals(status(client, "missed")));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events
                    .withKey(client + "/missed").stream().map(event -> event.data().get("status").asText()))
                    .containsExactly("SCHEDULED", "ACTIVE", "ENDED"));
        } finally {
            scheduler.stop();
        }
    }
}
