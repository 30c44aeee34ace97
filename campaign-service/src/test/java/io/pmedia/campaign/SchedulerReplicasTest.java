package io.pmedia.campaign;

import static io.pmedia.campaign.ScheduleLifecycleTest.schedule;
import static io.pmedia.campaign.ScheduleLifecycleTest.status;
import static io.pmedia.campaign.ScheduleLifecycleTest.statusOf;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.campaign.service.TransitionScheduler;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;

/**
 * Several schedulers racing over the same database fire every transition once: the application's own plus two
 * more "replicas" hammering the same claim concurrently, while the service's clock crosses the windows' start and
 * then their end.
 */
@QuarkusTest
class SchedulerReplicasTest {

    @Inject
    TransitionScheduler scheduler;

    @Inject
    TestClock clock;

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void eachTransitionFiresOnceWhateverTheNumberOfReplicas() throws Exception {
        UUID client = UUID.randomUUID();
        Instant start = Instant.now().plus(1, ChronoUnit.HOURS);

        List<String> campaigns = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String campaign = "race-" + i;
            campaigns.add(campaign);
            assertThat(statusOf(schedule(client, campaign, start, start.plus(1, ChronoUnit.HOURS)).statusCode(200)))
                    .isEqualTo("SCHEDULED");
        }

        AtomicBoolean racing = new AtomicBoolean(true);
        ExecutorService replicas = Executors.newFixedThreadPool(2);
        List<CompletableFuture<Integer>> fired = new ArrayList<>();
        for (int replica = 0; replica < 2; replica++) {
            fired.add(CompletableFuture.supplyAsync(() -> {
                int total = 0;
                while (racing.get()) {
                    total += BackgroundWork.call(vertx, scheduler::fireDue).await().atMost(Duration.ofSeconds(10));
                }
                return total;
            }, replicas));
        }
        try (KafkaEvents events = KafkaEvents.of(bootstrap, "pmedia.campaign.status")) {
            clock.advance(Duration.ofMinutes(90));
            Patience.await().until(() -> campaigns.stream()
                    .allMatch(campaign -> "ACTIVE".equals(status(client, campaign))));
            clock.advance(Duration.ofHours(1));
            Patience.await().until(() -> campaigns.stream()
                    .allMatch(campaign -> "ENDED".equals(status(client, campaign))));
            racing.set(false);
            for (CompletableFuture<Integer> replica : fired) {
                replica.get();
            }
            Patience.await().untilAsserted(() -> {
                Map<String, List<String>> byCampaign = events
                        .matching(event -> event.key().startsWith(client + "/")).stream()
                        .collect(Collectors.groupingBy(event -> event.key(),
                                Collectors.mapping(event -> event.data().get("status").asText(),
                                        Collectors.toList())));
                assertThat(byCampaign).hasSize(campaigns.size());
                byCampaign.values().forEach(statuses -> assertThat(statuses)
                        .containsExactly("SCHEDULED", "ACTIVE", "ENDED"));
            });
        } finally {
            racing.set(false);
            replicas.shutdownNow();
            clock.reset();
        }
    }
}
