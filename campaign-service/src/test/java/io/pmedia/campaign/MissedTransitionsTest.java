package io.pmedia.campaign;

import static io.pmedia.campaign.ScheduleLifecycleTest.schedule;
import static io.pmedia.campaign.ScheduleLifecycleTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.campaign.service.TransitionScheduler;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A replica that starts after transitions came due (the service was down) fires them at once, in order, each with
 * its event. The scheduler is off in this profile until the test starts it, as start-up would; the window passes on
 * the service's clock, not the wall clock.
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

    @Inject
    TestClock clock;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void transitionsMissedWhileDownFireOnStart() {
        UUID client = UUID.randomUUID();
        Instant start = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        Instant end = start.plus(1, ChronoUnit.HOURS);
        String accepted = schedule(client, "missed", start, end).statusCode(200).extract().path("status");
        assertThat(accepted).isEqualTo("SCHEDULED");

        // The whole window goes by while no replica fires transitions.
        clock.advance(Duration.ofHours(3));
        try (KafkaEvents events = KafkaEvents.of(bootstrap, "pmedia.campaign.status")) {
            assertThat(scheduler.running()).isFalse();
            assertThat(status(client, "missed")).isEqualTo("SCHEDULED");

            scheduler.start();
            Patience.await().until(() -> "ENDED".equals(status(client, "missed")));
            Patience.await().untilAsserted(() -> assertThat(events
                    .withKey(client + "/missed").stream().map(event -> event.data().get("status").asText()))
                    .containsExactly("SCHEDULED", "ACTIVE", "ENDED"));
        } finally {
            scheduler.stop();
            clock.reset();
        }
    }
}
