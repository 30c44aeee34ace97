package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.pmedia.notifier.TestReceiver.Answer;
import io.pmedia.notifier.messaging.MediaStatusConsumer;
import io.pmedia.notifier.service.DeliveryDispatcher;
import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Pending retries live in PostgreSQL, not in the process. Stopping the dispatcher drops everything it held in memory
 * (queues, breakers, timers), as a crash or a restart does; starting it again picks the schedule up from the table.
 * And a delivery whose replica died mid-attempt is taken over once that replica's lease has run out.
 */
@QuarkusTest
class RestartTest {

    @Inject
    DeliveryDispatcher dispatcher;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @AfterEach
    void running() {
        dispatcher.start();
    }

    @Test
    void aRestartBetweenTwoAttemptsContinuesTheSchedule() {
        UUID client = UUID.randomUUID();
        String secret = Secrets.newSecret();
        try (StatusEvents events = new StatusEvents(bootstrap);
                TestReceiver receiver = TestReceiver.accepting().then(Answer.status(500))) {
            GatewayStub.register(client, receiver.url(), Secret.current(secret));
            // The first attempt takes the process down with it: the dispatcher stops before the 500 is answered.
            receiver.onRequest(request -> {
                if (receiver.received().size() == 1) {
                    dispatcher.stop();
                }
            });
            StatusEvents.Event event = StatusEvents.success(client);

            events.send(event);

            Patience.await().until(() -> Api.attempts(client, event.id()).size() == 1);
            assertThat(Api.status(client, event.id())).isEqualTo("PENDING");
            // The retry is due 300 ms later, but nothing runs the schedule while the process is down.
            Patience.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
                    .until(() -> receiver.received().size() == 1);

            dispatcher.start();

            Patience.await().until(() -> "DELIVERED".equals(Api.status(client, event.id())));
            List<TestReceiver.Received> pushes = receiver.received();
            assertThat(pushes).hasSize(2);
            assertThat(pushes.get(1).header("webhook-id")).isEqualTo(pushes.get(0).header("webhook-id"));
            assertThat(Secrets.verifies(pushes.get(1), secret)).isTrue();
            assertThat(Api.attempts(client, event.id())).extracting(a -> a.get("status-code"))
                    .containsExactly(500, 202);
        }
    }

    @Test
    void aDeliveryLeftByADeadReplicaIsTakenOverWhenItsLeaseRunsOut() throws Exception {
        UUID client = UUID.randomUUID();
        String secret = Secrets.newSecret();
        try (TestReceiver receiver = TestReceiver.accepting()) {
            GatewayStub.register(client, receiver.url(), Secret.current(secret));
            UUID expired = UUID.randomUUID();
            UUID stillLeased = UUID.randomUUID();
            // Two deliveries another replica claimed and then died with: one lease ran out, one has not yet.
            insertClaimed(client, expired, "now() - interval '1 second'");
            insertClaimed(client, stillLeased, "now() + interval '1 hour'");

            Patience.await().until(() -> "DELIVERED".equals(Api.status(client, expired)));
            Map<String, Object> delivery = Api.delivery(client, expired);
            assertThat(delivery.get("attempt-count")).isEqualTo(2);
            assertThat(receiver.received()).hasSize(1);
            assertThat(receiver.received().get(0).header("webhook-id"))
                    .isEqualTo(MediaStatusConsumer.webhookId(expired));
            assertThat(Secrets.verifies(receiver.received().get(0), secret)).isTrue();
            assertThat(Api.status(client, stillLeased)).isEqualTo("PENDING");
        }
    }

    /** A delivery in the state a replica leaves it in while it works on the second attempt. */
    private static void insertClaimed(UUID client, UUID eventId, String leaseUntil) throws Exception {
        try (Connection db = TestDatabase.fromEnvironment().connect("pmedia_notifier_test");
                PreparedStatement insert = db.prepareStatement("INSERT INTO webhook_delivery (webhook_id, event_id,"
                        + " kind, client_id, subject, payload, status, attempts, next_attempt_at, lease_owner,"
                        + " lease_until) VALUES (?, ?, 'video.push', ?, 'sr-1', ?, 'PENDING', 1, " + leaseUntil
                        + ", ?, " + leaseUntil + ")")) {
            insert.setString(1, MediaStatusConsumer.webhookId(eventId));
            insert.setObject(2, eventId);
            insert.setObject(3, client);
            insert.setString(4, "{\"client-request-id\":\"" + eventId + "\",\"user-id\":\"u-1\",\"video-url\":"
                    + "\"https://cdn.example.com/v.mp4\"}");
            insert.setObject(5, UUID.randomUUID());
            insert.executeUpdate();
        }
    }
}
