package io.pmedia.notifier;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Besides the video push, an endpoint may subscribe to a batch task's end (body: the 2.8 task status) and a try-on's
 * end (body: the 2.9 status): one delivery per resource, signed, named in the webhook-event-type header, in the log;
 * nothing for what is not subscribed.
 */
@QuarkusTest
class EventTypesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private static void subscribe(UUID client, String url, String... types) {
        given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                .body(Map.of("url", url, "event-types", List.of(types))).put("/webhooks/endpoint").then()
                .statusCode(200);
    }

    @Test
    void aBatchTaskEndIsDeliveredOnceToASubscribedEndpointWithTheTaskStatus() throws Exception {
        UUID client = UUID.randomUUID();
        UUID unsubscribed = UUID.randomUUID();
        String secret = Secrets.newSecret();
        UUID task = UUID.randomUUID();
        UUID cancelled = UUID.randomUUID();
        try (TestReceiver receiver = TestReceiver.accepting(); EndedEvents events = new EndedEvents(bootstrap)) {
            GatewayStub.register(client, receiver.url(), Secret.current(secret));
            GatewayStub.register(unsubscribed, receiver.url(), Secret.current(Secrets.newSecret()));
            subscribe(client, receiver.url(), "video.push", "batch.task.ended");
            // the other client's endpoint keeps the default: video pushes only
            events.batch(unsubscribed, task, "COMPLETED", "s3://bucket/batch/x/output.csv", 3, 3,
                    "3 of 3 rows rendered");
            events.batch(client, task, "IN PROGRESS", null, 3, 1, "1 of 3 rows answered");
            // cancelled with rows rendering: the end is delivered when the output file is named
            events.batch(client, cancelled, "FAILED", null, 3, 1, "task cancelled by the client");
            events.batch(client, task, "COMPLETED", "s3://bucket/batch/" + client + "/" + task + "/output.csv", 3, 3,
                    "3 of 3 rows rendered");
            events.batch(client, task, "COMPLETED", "s3://bucket/batch/" + client + "/" + task + "/output.csv", 3, 3,
                    "3 of 3 rows rendered");
            events.batch(client, cancelled, "FAILED", "s3://bucket/batch/" + client + "/" + cancelled
                    + "/output.csv", 3, 1, "task cancelled by the client");

            Patience.await().until(() -> Api.deliveries(client, "type=batch.task.ended")
                    .statusCode(200).extract().jsonPath().getList("items.status").equals(List.of("DELIVERED",
                            "DELIVERED")));
            JsonPath log = Api.deliveries(client, "type=batch.task.ended").statusCode(200).extract().jsonPath();
            assertThat(log.getList("items.subject")).containsExactlyInAnyOrder(task.toString(), cancelled.toString());
            assertThat(log.getList("items.status")).containsOnly("DELIVERED");
            assertThat(log.getList("items.service-request-id")).containsOnlyNulls();

            TestReceiver.Received push = receiver.receivedWith(task.toString()).get(0);
            assertThat(push.header("webhook-event-type")).isEqualTo("batch.task.ended");
            assertThat(Secrets.verifies(push, secret)).isTrue();
            JsonNode body = JSON.readTree(push.body());
            assertThat(fields(body))
                    .containsExactly("task-id", "status", "file-path", "total-count", "processed", "message");
            assertThat(body.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(body.path("total-count").asInt()).isEqualTo(3);
            JsonNode cancelledBody = JSON.readTree(receiver.receivedWith(cancelled.toString()).get(0).body());
            assertThat(cancelledBody.path("status").asText()).isEqualTo("FAILED");
            assertThat(cancelledBody.path("file-path").asText()).endsWith(cancelled + "/output.csv");

            // a later event proves the earlier ones were consumed: still one push per task, none for the other client
            UUID marker = UUID.randomUUID();
            events.batch(client, marker, "FAILED", null, 0, 0, "the file has fewer rows than row-count");
            Patience.await().until(() -> !receiver.receivedWith(marker.toString()).isEmpty());
            assertThat(receiver.receivedWith(task.toString())).hasSize(1);
            assertThat(receiver.receivedWith(cancelled.toString())).hasSize(1);
            assertThat(Api.deliveries(unsubscribed, "").statusCode(200).extract().jsonPath().getList("items"))
                    .isEmpty();
        }
    }

    @Test
    void aTryOnEndIsDeliveredWithItsStatusAndNotItsProgress() throws Exception {
        UUID client = UUID.randomUUID();
        UUID request = UUID.randomUUID();
        UUID failed = UUID.randomUUID();
        try (TestReceiver receiver = TestReceiver.accepting(); EndedEvents events = new EndedEvents(bootstrap)) {
            GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
            subscribe(client, receiver.url(), "tryon.request.ended");
            events.tryOn(client, request, "PROCESSING", null, null);
            events.tryOn(client, request, "SUCCESS", "https://store.example.com/vton/x.png?sig=1", null);
            events.tryOn(client, failed, "FAILURE", null, "model-image could not be fetched");
            Patience.await().until(() -> Api.deliveries(client, "status=DELIVERED")
                    .statusCode(200).extract().jsonPath().getList("items").size() == 2);
            TestReceiver.Received push = receiver.receivedWith(request.toString()).get(0);
            assertThat(push.header("webhook-event-type")).isEqualTo("tryon.request.ended");
            JsonNode body = JSON.readTree(push.body());
            assertThat(fields(body))
                    .containsExactly("request-id", "status", "generated-output", "message");
            assertThat(body.path("status").asText()).isEqualTo("SUCCESS");
            assertThat(body.path("generated-output").asText()).startsWith("https://store.example.com/");
            assertThat(JSON.readTree(receiver.receivedWith(failed.toString()).get(0).body()).path("message").asText())
                    .contains("could not be fetched");
            assertThat(Api.deliveries(client, "type=tryon.request.ended&status=DELIVERED").statusCode(200)
                    .extract().jsonPath().getList("items")).hasSize(2);
            assertThat(Api.deliveries(client, "type=video.push").statusCode(200).extract().jsonPath()
                    .getList("items")).isEmpty();
        }
    }

    @Test
    void aVideoPushIsNotSentToAnEndpointThatUnsubscribedFromIt() {
        UUID client = UUID.randomUUID();
        try (TestReceiver receiver = TestReceiver.accepting(); StatusEvents events = new StatusEvents(bootstrap)) {
            GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
            subscribe(client, receiver.url(), "batch.task.ended");
            StatusEvents.Event event = StatusEvents.success(client);
            events.send(event);
            Patience.await().until(() -> "SKIPPED".equals(Api.status(client, event.id())));
            assertThat(Api.delivery(client, event.id()).get("last-error")).asString()
                    .contains("does not subscribe to video.push");
            assertThat(receiver.received()).isEmpty();
        }
    }

    private static List<String> fields(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
