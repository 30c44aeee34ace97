package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/** A SUCCESS status event becomes one signed video push, exactly as the interface and Standard Webhooks say. */
@QuarkusTest
class VideoPushDeliveryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    StatusEvents events;
    TestReceiver receiver;

    @BeforeEach
    void setUp() {
        events = new StatusEvents(bootstrap);
        receiver = TestReceiver.accepting();
    }

    @AfterEach
    void tearDown() {
        events.close();
        receiver.close();
    }

    @Test
    void aSuccessEventIsPushedWithTheExactBodyAndAVerifiableSignature() throws Exception {
        UUID client = UUID.randomUUID();
        String secret = Secrets.newSecret();
        GatewayStub.register(client, receiver.url(), Secret.current(secret));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> receiver.received().size() == 1);
        TestReceiver.Received push = receiver.received().get(0);
        assertThat(push.path()).isEqualTo("/video-push-endpoint");
        assertThat(push.body()).isEqualTo("{\"client-request-id\":\"" + event.clientRequestId()
                + "\",\"user-id\":\"u-1\",\"video-url\":\"https://cdn.example.com/" + event.serviceRequestId()
                + ".mp4\"}");
        JsonNode body = JSON.readTree(push.body());
        assertThat(body.size()).isEqualTo(3);
        assertThat(push.header("content-type")).isEqualTo("application/json");
        assertThat(push.header("user-agent")).startsWith("pmedia-notifier/");
        assertThat(push.header("webhook-id")).matches("msg_[0-9a-f]{32}");
        long timestamp = Long.parseLong(push.header("webhook-timestamp"));
        assertThat(timestamp).isBetween(Instant.now().getEpochSecond() - 30, Instant.now().getEpochSecond() + 1);
        assertThat(Secrets.signatures(push.header("webhook-signature"))).hasSize(1);
        assertThat(Secrets.verifies(push, secret)).as("signature verifies with the client's secret").isTrue();
        assertThat(Secrets.verifies(push, Secrets.newSecret())).isFalse();

        Patience.await().untilAsserted(() -> {
            var delivery = Api.delivery(client, event.id());
            assertThat(delivery).isNotNull();
            assertThat(delivery.get("status")).isEqualTo("DELIVERED");
            assertThat(delivery.get("webhook-id")).isEqualTo(push.header("webhook-id"));
            assertThat(delivery.get("service-request-id")).isEqualTo(event.serviceRequestId());
            assertThat(delivery.get("attempt-count")).isEqualTo(1);
            List<?> attempts = (List<?>) delivery.get("attempts");
            assertThat(attempts).hasSize(1);
        });
        var attempt = Api.attempts(client, event.id()).get(0);
        assertThat(attempt.get("status-code")).isEqualTo(202);
        assertThat(attempt.get("url")).isEqualTo(receiver.url());
        assertThat(attempt.get("trigger")).isEqualTo("scheduled");
        assertThat(attempt.get("response-body")).isEqualTo("{\"status\":\"202\"}");
        assertThat((Integer) attempt.get("latency-ms")).isGreaterThanOrEqualTo(0);
    }

    @Test
    void afterARotationThePushCarriesTheNewAndTheOldSignatureButNotAnExpiredOne() {
        UUID client = UUID.randomUUID();
        String current = Secrets.newSecret();
        String previous = Secrets.newSecret();
        String expired = Secrets.newSecret();
        GatewayStub.register(client, receiver.url(), Secret.current(current),
                new Secret(previous, Instant.now().plus(Duration.ofHours(24))),
                new Secret(expired, Instant.now().minus(Duration.ofMinutes(1))));

        events.send(StatusEvents.success(client));

        Patience.await().until(() -> receiver.received().size() == 1);
        TestReceiver.Received push = receiver.received().get(0);
        assertThat(Secrets.signatures(push.header("webhook-signature"))).hasSize(2);
        assertThat(Secrets.signatures(push.header("webhook-signature")).get(0))
                .as("the current secret signs first")
                .isEqualTo(Secrets.expected(current, push.header("webhook-id"), push.header("webhook-timestamp"),
                        push.body()));
        assertThat(Secrets.verifies(push, current)).isTrue();
        assertThat(Secrets.verifies(push, previous)).isTrue();
        assertThat(Secrets.verifies(push, expired)).isFalse();
    }

    @Test
    void theSameRecordConsumedTwiceIsPushedOnce() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
        StatusEvents.Event event = StatusEvents.success(client);
        StatusEvents.Event marker = StatusEvents.success(client);

        events.send(event).send(event);
        Patience.await().until(() -> receiver.receivedWith(event.clientRequestId()).size() >= 1);
        events.send(event).send(marker, event.serviceRequestId());

        // The marker follows every copy on the same partition: once it is pushed, the copies have been consumed.
        Patience.await().until(() -> receiver.receivedWith(marker.clientRequestId()).size() == 1);
        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, marker.id())));
        assertThat(receiver.receivedWith(event.clientRequestId())).hasSize(1);
        assertThat(Api.deliveries(client, "").extract().jsonPath().getList("items")).hasSize(2);
    }

    @Test
    void withoutAWebhookUrlNothingIsSentAndNothingFails() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, null, Secret.current(Secrets.newSecret()));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "SKIPPED".equals(Api.status(client, event.id())));
        assertThat(Api.delivery(client, event.id()).get("last-error")).isEqualTo("the client has no webhook-url");
        assertThat(Api.attempts(client, event.id())).isEmpty();
        assertThat(receiver.received()).isEmpty();
    }

    @Test
    void aClientTheGatewayDoesNotKnowIsSkipped() {
        UUID client = UUID.randomUUID();
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "SKIPPED".equals(Api.status(client, event.id())));
        assertThat(Api.delivery(client, event.id()).get("last-error")).isEqualTo("the client does not exist");
    }

    @Test
    void whileTheGatewayCannotAnswerTheDeliveryWaitsWithoutUsingAnAttempt() {
        UUID client = UUID.randomUUID();
        // The registry client tries three times per lookup: the first lookup fails, a later one succeeds.
        GatewayStub.registerFailingFirst(3, client, receiver.url(), Secret.current(Secrets.newSecret()));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, event.id())));
        assertThat(GatewayStub.lookups(client)).isGreaterThanOrEqualTo(4);
        assertThat(Api.attempts(client, event.id())).hasSize(1);
        assertThat(receiver.received()).hasSize(1);
    }

    @Test
    void onlySuccessEventsArePushed() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
        StatusEvents.Event processing = StatusEvents.status(client, "PROCESSING");
        StatusEvents.Event failure = StatusEvents.status(client, "FAILURE");
        StatusEvents.Event success = StatusEvents.success(client);

        events.send(processing).send(failure).send(success);

        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, success.id())));
        assertThat(receiver.received()).hasSize(1);
        assertThat(Api.deliveries(client, "").extract().jsonPath().getList("items")).hasSize(1);
    }

    @Test
    void aBurstForOneClientCostsOneRegistryLookup() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
        for (int i = 0; i < 20; i++) {
            events.send(StatusEvents.success(client));
        }
        Patience.await().until(() -> receiver.received().size() == 20);
        assertThat(GatewayStub.lookups(client)).isLessThanOrEqualTo(3);
    }
}
