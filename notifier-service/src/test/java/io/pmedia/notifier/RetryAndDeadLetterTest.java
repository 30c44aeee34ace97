package io.pmedia.notifier;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pmedia.notifier.TestReceiver.Answer;
import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What happens when an endpoint does not take a push at once. The test profile runs the schedule in fractions of a
 * second (0, 300 ms, 600 ms, 600 ms: four attempts).
 */
@QuarkusTest
class RetryAndDeadLetterTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    static KafkaEvents deadLetters;
    StatusEvents events;
    TestReceiver receiver;
    UUID client;
    String secret;

    @AfterAll
    static void stopReading() {
        if (deadLetters != null) {
            deadLetters.close();
        }
    }

    @BeforeEach
    void setUp() {
        if (deadLetters == null) {
            deadLetters = KafkaEvents.of(bootstrap, "pmedia.webhook.dead-letter");
        }
        events = new StatusEvents(bootstrap);
        receiver = TestReceiver.accepting();
        client = UUID.randomUUID();
        secret = Secrets.newSecret();
        GatewayStub.register(client, receiver.url(), Secret.current(secret));
    }

    @AfterEach
    void tearDown() {
        events.close();
        receiver.close();
    }

    @Test
    void aFailedAttemptIsRetriedWithTheSameWebhookIdUntilItSucceeds() {
        receiver.then(Answer.status(500, "{\"oops\":true}"), Answer.status(503));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, event.id())));
        List<TestReceiver.Received> pushes = receiver.received();
        assertThat(pushes).hasSize(3);
        assertThat(pushes).extracting(push -> push.header("webhook-id")).containsOnly(pushes.get(0).header(
                "webhook-id"));
        assertThat(pushes).allMatch(push -> Secrets.verifies(push, secret), "each attempt is signed afresh");
        assertThat(pushes).extracting(TestReceiver.Received::body).containsOnly(pushes.get(0).body());
        assertThat(Duration.between(pushes.get(0).at(), pushes.get(1).at())).isGreaterThanOrEqualTo(
                Duration.ofMillis(250));
        List<Map<String, Object>> attempts = Api.attempts(client, event.id());
        assertThat(attempts).extracting(a -> a.get("status-code")).containsExactly(500, 503, 202);
        assertThat(attempts).extracting(a -> a.get("attempt")).containsExactly(1, 2, 3);
        assertThat(attempts.get(0).get("response-body")).isEqualTo("{\"oops\":true}");
        assertThat(attempts.get(0).get("error")).isEqualTo("endpoint answered 500");
    }

    @Test
    void retryAfterIsHonoured() {
        receiver.then(Answer.withHeader(429, "Retry-After", "2"));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, event.id())));
        List<TestReceiver.Received> pushes = receiver.received();
        assertThat(pushes).hasSize(2);
        assertThat(Duration.between(pushes.get(0).at(), pushes.get(1).at()))
                .as("the schedule says 300 ms, the endpoint asked for 2 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void gone410DisablesTheEndpointUntilASuccessfulTest() {
        receiver.answerFromNowOn(Answer.status(410));
        StatusEvents.Event first = StatusEvents.success(client);
        events.send(first);
        Patience.await().until(() -> "FAILED".equals(Api.status(client, first.id())));
        assertThat(Api.attempts(client, first.id())).extracting(a -> a.get("status-code")).containsExactly(410);

        StatusEvents.Event second = StatusEvents.success(client);
        events.send(second);
        Patience.await().until(() -> "FAILED".equals(Api.status(client, second.id())));
        assertThat(Api.delivery(client, second.id()).get("last-error").toString()).contains("disabled");
        assertThat(Api.attempts(client, second.id())).isEmpty();
        assertThat(receiver.received()).hasSize(1);

        receiver.answerFromNowOn(Answer.status(204));
        assertThat(Api.test(client).statusCode(200)
                .extract().jsonPath().getBoolean("delivered")).isTrue();
        StatusEvents.Event third = StatusEvents.success(client);
        events.send(third);
        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, third.id())));
    }

    @Test
    void anyOther4xxIsFinal() {
        receiver.answerFromNowOn(Answer.status(400, "{\"error\":\"unknown field\"}"));
        StatusEvents.Event event = StatusEvents.success(client);
        StatusEvents.Event marker = StatusEvents.success(client);

        events.send(event);
        Patience.await().until(() -> "FAILED".equals(Api.status(client, event.id())));

        assertThat(Api.delivery(client, event.id()).get("next-attempt-at")).isNull();
        assertThat(Api.attempts(client, event.id())).extracting(a -> a.get("status-code")).containsExactly(400);
        // A later push to the same endpoint shows the endpoint stays usable and nothing else was sent meanwhile.
        receiver.answerFromNowOn(Answer.status(202));
        events.send(marker);
        Patience.await().until(() -> "DELIVERED".equals(Api.status(client, marker.id())));
        assertThat(receiver.receivedWith(event.clientRequestId())).hasSize(1);
    }

    @Test
    void afterTheLastAttemptTheDeliveryIsExhaustedAndDeadLettered() {
        receiver.answerFromNowOn(Answer.status(500));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "EXHAUSTED".equals(Api.status(client, event.id())));
        assertThat(receiver.received()).hasSize(4);
        Map<String, Object> delivery = Api.delivery(client, event.id());
        String webhookId = (String) delivery.get("webhook-id");
        assertThat(delivery.get("attempt-count")).isEqualTo(4);
        assertThat(delivery.get("last-status-code")).isEqualTo(500);

        Patience.await().until(() -> !deadLetters.withKey(webhookId).isEmpty());
        KafkaEvents.Event dead = deadLetters.withKey(webhookId).get(0);
        assertThat(deadLetters.withKey(webhookId)).hasSize(1);
        assertThat(dead.envelope().path("type").asText()).isEqualTo("io.pmedia.webhook.delivery.exhausted");
        assertThat(dead.envelope().path("source").asText()).isEqualTo("/pmedia/notifier-service");
        assertThat(dead.contentType()).startsWith("application/cloudevents+json");
        assertThat(dead.data().path("client-id").asText()).isEqualTo(client.toString());
        assertThat(dead.data().path("webhook-id").asText()).isEqualTo(webhookId);
        assertThat(dead.data().path("event-id").asText()).isEqualTo(event.id().toString());
        assertThat(dead.data().path("url").asText()).isEqualTo(receiver.url());
        assertThat(dead.data().path("attempts").asInt()).isEqualTo(4);
        assertThat(dead.data().path("last-status").asInt()).isEqualTo(500);
        assertThat(dead.data().path("last-error").asText()).isEqualTo("endpoint answered 500");
        assertThat(dead.data().path("payload").path("client-request-id").asText())
                .isEqualTo(event.clientRequestId());

        // The operator's dead letters list it under its vendor (and a vendor token is refused there)...
        var listed = given().header("Authorization", "Bearer " + TestTokens.operator())
                .get("/admin/webhooks/dead-letters?client-id=" + client).then().statusCode(200).extract().jsonPath();
        assertThat(listed.getList("items.delivery.webhook-id")).containsExactly(webhookId);
        assertThat(listed.getList("items.client-id")).containsExactly(client.toString());
        assertThat(listed.getList("items.delivery.status")).containsExactly("EXHAUSTED");
        given().header("Authorization", "Bearer " + TestTokens.operator()).get("/admin/webhooks/dead-letters").then()
                .statusCode(200).body("items.delivery.status", everyItem(equalTo("EXHAUSTED")));
        given().header("Authorization", TestTokens.bearer(client)).get("/admin/webhooks/dead-letters").then()
                .statusCode(403);
        // ... and once the endpoint is fixed, the operator's replay sends it again with the same webhook-id.
        receiver.answerFromNowOn(Answer.status(204));
        given().header("Authorization", "Bearer " + TestTokens.operator())
                .post("/admin/webhooks/dead-letters/" + webhookId + "/replay").then().statusCode(200)
                .body("client-id", equalTo(client.toString())).body("delivery.status", equalTo("DELIVERED"));
        assertThat(receiver.received()).hasSize(5);
        assertThat(receiver.received().get(4).header("webhook-id")).isEqualTo(webhookId);
        given().header("Authorization", "Bearer " + TestTokens.operator())
                .post("/admin/webhooks/dead-letters/msg_" + "0".repeat(32) + "/replay").then().statusCode(404);
    }

    @Test
    void connectionErrorsAreRetried() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        GatewayStub.register(client, "http://127.0.0.1:" + closedPort + "/hook", Secret.current(secret));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "EXHAUSTED".equals(Api.status(client, event.id())));
        List<Map<String, Object>> attempts = Api.attempts(client, event.id());
        assertThat(attempts).hasSize(4);
        assertThat(attempts).allSatisfy(attempt -> {
            assertThat(attempt.get("status-code")).isNull();
            assertThat((String) attempt.get("error")).contains("could not reach");
        });
    }

    @Test
    void anAddressThePolicyRefusesIsNeverDialled() {
        GatewayStub.register(client, "http://169.254.169.254/latest/meta-data", Secret.current(secret));
        StatusEvents.Event event = StatusEvents.success(client);

        events.send(event);

        Patience.await().until(() -> "FAILED".equals(Api.status(client, event.id())));
        List<Map<String, Object>> attempts = Api.attempts(client, event.id());
        assertThat(attempts).hasSize(1);
        assertThat((String) attempts.get(0).get("error")).contains("169.254.169.254")
                .contains("does not resolve to a public address");
    }

    @Test
    void aRedirectIsNotFollowed() {
        try (TestReceiver elsewhere = TestReceiver.accepting()) {
            receiver.answerFromNowOn(new Answer(302, Map.of("Location", elsewhere.url()), "", false));
            StatusEvents.Event event = StatusEvents.success(client);

            events.send(event);

            Patience.await().until(() -> "FAILED".equals(Api.status(client, event.id())));
            assertThat(Api.attempts(client, event.id())).extracting(a -> a.get("status-code")).containsExactly(302);
            assertThat(elsewhere.received()).isEmpty();
        }
    }
}
