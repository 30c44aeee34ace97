package io.pmedia.notifier;

import static io.pmedia.testing.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * A vendor runs its own webhook endpoint: reads it, sets its URL and event types (the registry's rules apply), tests
 * it, rotates its secret (both secrets sign for the overlap); the registry being out is a fast 503.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookEndpointTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    static ValidatableResponse get(UUID client) {
        return given().header("Authorization", TestTokens.bearer(client)).get("/webhooks/endpoint").then().log()
                .ifValidationFails();
    }

    static ValidatableResponse put(UUID client, Object body) {
        return given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON).body(body)
                .put("/webhooks/endpoint").then().log().ifValidationFails();
    }

    static ValidatableResponse post(UUID client, String path) {
        return given().header("Authorization", TestTokens.bearer(client)).post(path).then().log().ifValidationFails();
    }

    @Test
    void aVendorSetsItsEndpointAndTestsIt() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, null, Secret.current(Secrets.newSecret()));
        JsonPath initial = get(client).statusCode(200).extract().jsonPath();
        assertThat(initial.getString("url")).isNull();
        assertThat(initial.getList("event-types")).containsExactly("video.push");
        assertThat(initial.getList("available-event-types"))
                .containsExactly("video.push", "batch.task.ended", "tryon.request.ended", "video.viewed",
                        "video.completed", "cta.clicked", "video.rendered", "video.render-failed");
        assertThat(initial.getBoolean("disabled")).isFalse();
        isError(post(client, "/webhooks/endpoint/test"), 409, "CONFLICT");

        try (TestReceiver receiver = TestReceiver.accepting()) {
            JsonPath set = put(client, Map.of("url", receiver.url(), "event-types",
                    List.of("video.push", "batch.task.ended"))).statusCode(200).extract().jsonPath();
            assertThat(set.getString("url")).isEqualTo(receiver.url());
            assertThat(set.getList("event-types")).containsExactly("video.push", "batch.task.ended");
            assertThat(get(client).statusCode(200).extract().jsonPath().getList("event-types"))
                    .containsExactly("video.push", "batch.task.ended");

            JsonPath tested = post(client, "/webhooks/endpoint/test").statusCode(200).extract().jsonPath();
            assertThat(tested.getBoolean("delivered")).isTrue();
            assertThat(tested.getString("url")).isEqualTo(receiver.url());
            assertThat(receiver.received()).hasSize(1);
            assertThat(receiver.received().get(0).header("webhook-event-type")).isEqualTo("test");
            assertThat(receiver.received().get(0).header("webhook-id")).isEqualTo(tested.getString("webhook-id"));
        }

        assertThat(isError(put(client, Map.of("url", "ftp://hooks.example.com/")), 400, "VALIDATION_ERROR")
                .extract().jsonPath().getString("message")).startsWith("field 'url'");
        assertThat(isError(put(client, Map.of("url", "https://hooks.example.com/", "event-types",
                List.of("video.push", "render.done"))), 400, "VALIDATION_ERROR").extract().jsonPath()
                .getString("message")).contains("'event-types[1]'");
        isError(put(client, Map.of("url", "https://hooks.example.com/", "event-types", "video.push")), 400,
                "BAD_REQUEST");
        Map<String, Object> none = new HashMap<>();
        none.put("url", null);
        JsonPath cleared = put(client, none).statusCode(200).extract().jsonPath();
        assertThat(cleared.getString("url")).isNull();
        assertThat(cleared.getList("event-types")).containsExactly("video.push");
    }

    @Test
    void afterARotationEveryPushIsSignedWithTheNewAndThePreviousSecret() {
        UUID client = UUID.randomUUID();
        String previous = Secrets.newSecret();
        try (TestReceiver receiver = TestReceiver.accepting(); StatusEvents events = new StatusEvents(bootstrap)) {
            GatewayStub.register(client, receiver.url(), Secret.current(previous));
            JsonPath rotated = post(client, "/webhooks/endpoint/rotate-secret").statusCode(200).extract().jsonPath();
            String current = rotated.getString("webhook-secret");
            assertThat(current).startsWith("whsec_").isNotEqualTo(previous);
            Instant until = Instant.parse(rotated.getString("previous-valid-until"));
            assertThat(Duration.between(Instant.now(), until)).isBetween(Duration.ofHours(23), Duration.ofHours(24));
            assertThat(Instant.parse(get(client).statusCode(200).extract().path("previous-secret-valid-until")))
                    .isEqualTo(until);

            StatusEvents.Event event = StatusEvents.success(client);
            events.send(event);
            Patience.await().until(() -> !receiver.receivedWith(event.clientRequestId())
                    .isEmpty());
            TestReceiver.Received push = receiver.receivedWith(event.clientRequestId()).get(0);
            assertThat(Secrets.signatures(push.header("webhook-signature"))).hasSize(2);
            assertThat(Secrets.verifies(push, current)).isTrue();
            assertThat(Secrets.verifies(push, previous)).isTrue();
            assertThat(push.header("webhook-event-type")).isEqualTo("video.push");
        }
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void theRegistryBeingOutIsA503AndChangesNothing() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, "https://hooks.example.com/a", Secret.current(Secrets.newSecret()));
        // confirmed just now, the client passes the revocation check without asking the registry during the outage
        get(client).statusCode(200);
        GatewayStub.down();
        try {
            isError(get(client), 503, "SERVICE_UNAVAILABLE").header("Retry-After", "5");
            isError(put(client, Map.of("url", "https://hooks.example.com/b")), 503, "SERVICE_UNAVAILABLE");
            isError(post(client, "/webhooks/endpoint/rotate-secret"), 503, "SERVICE_UNAVAILABLE");
        } finally {
            GatewayStub.up();
        }
        // the registry client's breaker may stay open a few seconds after the outage
        Patience.await().untilAsserted(() -> assertThat(get(client).statusCode(200).extract()
                .jsonPath().getString("url")).isEqualTo("https://hooks.example.com/a"));
    }
}
