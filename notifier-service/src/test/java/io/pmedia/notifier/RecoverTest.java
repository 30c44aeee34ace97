package io.pmedia.notifier;

import static io.pmedia.testing.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.pmedia.notifier.TestReceiver.Answer;
import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * POST /webhooks/deliveries/recover: every failed or exhausted delivery of the caller since a time is sent once more
 * with its own webhook-id; one that fails again is left as it was (no second dead letter); another vendor's are not
 * touched.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecoverTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private KafkaEvents deadLetters;

    @BeforeAll
    void listen() {
        deadLetters = KafkaEvents.of(bootstrap, "pmedia.webhook.dead-letter");
    }

    @AfterAll
    void stopListening() {
        deadLetters.close();
    }

    static ValidatableResponse recover(UUID client, Object body) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON).body(body)
                .post("/webhooks/deliveries/recover").then().log().ifValidationFails();
    }

    @Test
    void failedAndExhaustedDeliveriesAreSentAgainWithTheirWebhookIds() {
        UUID client = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Instant before = Instant.now().minusSeconds(1);
        try (TestReceiver receiver = TestReceiver.answering(Answer.status(400));
                StatusEvents events = new StatusEvents(bootstrap)) {
            GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
            GatewayStub.register(other, receiver.url(), Secret.current(Secrets.newSecret()));
            StatusEvents.Event failed = StatusEvents.success(client);
            StatusEvents.Event othersFailed = StatusEvents.success(other);
            events.send(failed).send(othersFailed);
            Patience.await().until(() -> "FAILED".equals(Api.status(client, failed.id()))
                    && "FAILED".equals(Api.status(other, othersFailed.id())));
            receiver.answerFromNowOn(Answer.status(500));
            StatusEvents.Event exhausted = StatusEvents.success(client);
            events.send(exhausted);
            Patience.await().until(() -> "EXHAUSTED".equals(Api.status(client,
                    exhausted.id())));
            String exhaustedId = (String) Api.delivery(client, exhausted.id()).get("webhook-id");
            Patience.await().until(() -> deadLetters.withKey(exhaustedId).size() == 1);

            // the endpoint is fixed: both come through, with the webhook-ids they had
            receiver.answerFromNowOn(Answer.status(204));
            assertThat(recover(client, Map.of("since", before.toString())).statusCode(200).extract().jsonPath()
                    .getInt("recovering")).isEqualTo(2);
            Patience.await().until(() -> "DELIVERED".equals(Api.status(client, failed.id()))
                    && "DELIVERED".equals(Api.status(client, exhausted.id())));
            List<Map<String, Object>> attempts = Api.attempts(client, failed.id());
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(1).get("trigger")).isEqualTo("recover");
            assertThat(attempts.get(1).get("status-code")).isEqualTo(204);
            String failedId = (String) Api.delivery(client, failed.id()).get("webhook-id");
            assertThat(receiver.receivedWith(failed.clientRequestId())).extracting(r -> r.header("webhook-id"))
                    .containsOnly(failedId);
            assertThat(Api.attempts(client, exhausted.id())).hasSize(5);
            assertThat(Api.status(other, othersFailed.id())).isEqualTo("FAILED");
            assertThat(recover(client, Map.of("since", before.toString())).statusCode(200).extract().jsonPath()
                    .getInt("recovering")).isZero();

            // the other vendor's recovery fails again: it is left FAILED, and an exhausted one would not dead-letter
            receiver.answerFromNowOn(Answer.status(410));
            assertThat(recover(other, Map.of("since", before.toString(), "until", Instant.now().plusSeconds(1)
                    .toString())).statusCode(200).extract().jsonPath().getInt("recovering")).isEqualTo(1);
            Patience.await().until(() -> Api.attempts(other, othersFailed.id()).size() == 2);
            assertThat(Api.status(other, othersFailed.id())).isEqualTo("FAILED");
            assertThat(Api.attempts(other, othersFailed.id()).get(1).get("trigger")).isEqualTo("recover");
            assertThat(deadLetters.withKey(exhaustedId)).hasSize(1);
        }
    }

    @Test
    void sinceIsRequiredAndNamed() {
        UUID client = UUID.randomUUID();
        assertThat(isError(recover(client, Map.of()), 400, "VALIDATION_ERROR").extract().jsonPath()
                .getString("message")).contains("'since'");
        assertThat(isError(recover(client, Map.of("since", "last week")), 400, "VALIDATION_ERROR").extract()
                .jsonPath().getString("message")).contains("'since'");
        assertThat(isError(recover(client, Map.of("since", Instant.now().plusSeconds(60).toString())), 400,
                "VALIDATION_ERROR").extract().jsonPath().getString("message")).contains("'since'");
    }
}
