package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.notifier.TestReceiver.Answer;
import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/** One client's endpoint hangs; another client's pushes leave as if nothing were wrong. */
@QuarkusTest
class EndpointIsolationTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "pmedia.webhooks.endpoint.max-concurrency")
    int maxConcurrency;

    @Test
    void aHangingEndpointDoesNotDelayAnotherEndpointsDelivery() {
        UUID slowClient = UUID.randomUUID();
        UUID client = UUID.randomUUID();
        try (StatusEvents events = new StatusEvents(bootstrap);
                TestReceiver hanging = TestReceiver.answering(Answer.hanging());
                TestReceiver healthy = TestReceiver.accepting()) {
            GatewayStub.register(slowClient, hanging.url(), Secret.current(Secrets.newSecret()));
            GatewayStub.register(client, healthy.url(), Secret.current(Secrets.newSecret()));
            List<StatusEvents.Event> stuck = new ArrayList<>();
            for (int i = 0; i < maxConcurrency * 2; i++) {
                StatusEvents.Event event = StatusEvents.success(slowClient);
                stuck.add(event);
                events.send(event);
            }

            // The hanging endpoint holds exactly its own share of connections, no more.
            Patience.await().until(() -> hanging.received().size() >= maxConcurrency);
            Patience.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                    .until(() -> hanging.received().size() == maxConcurrency);

            StatusEvents.Event event = StatusEvents.success(client);
            Instant sent = Instant.now();
            events.send(event);
            Patience.await().until(() -> healthy.received().size() == 1);
            assertThat(Duration.between(sent, healthy.received().get(0).at())).isLessThan(Duration.ofSeconds(2));
            assertThat(hanging.received()).hasSize(maxConcurrency);

            // The hanging attempts end at the timeout; the breaker then fails the rest fast instead of queueing them.
            Patience.await().untilAsserted(() -> {
                List<String> errors = stuck.stream()
                        .flatMap(e -> Api.attempts(slowClient, e.id()).stream())
                        .map(a -> String.valueOf(a.get("error")))
                        .toList();
                assertThat(errors).anyMatch(error -> error.contains("no complete response"));
                assertThat(errors).anyMatch(error -> error.contains("circuit breaker is open"));
            });
            assertThat(Api.status(client, event.id())).isEqualTo("DELIVERED");
        }
    }
}
