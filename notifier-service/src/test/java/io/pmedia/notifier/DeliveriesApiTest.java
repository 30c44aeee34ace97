package io.pmedia.notifier;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.notifier.TestReceiver.Answer;
import io.pmedia.notifier.messaging.MediaStatusConsumer;
import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.pmedia.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** The vendor's tooling: list its deliveries, replay one, send a test event; never another client's data. */
@QuarkusTest
class DeliveriesApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void deliveriesArePagedNewestFirstAndFilteredByStatus() {
        UUID client = UUID.randomUUID();
        try (StatusEvents events = new StatusEvents(bootstrap); TestReceiver receiver = TestReceiver.accepting()) {
            GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
            List<StatusEvents.Event> sent = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                StatusEvents.Event event = StatusEvents.success(client);
                sent.add(event);
                events.send(event);
            }
            Patience.await().until(() -> sent.stream()
                    .allMatch(event -> "DELIVERED".equals(Api.status(client, event.id()))));

            List<String> seen = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                JsonPath page = Api.deliveries(client, "limit=2" + (cursor == null ? "" : "&cursor=" + cursor))
                        .statusCode(200).extract().jsonPath();
                seen.addAll(page.getList("items.event-id"));
                cursor = page.getString("next-cursor");
                pages++;
            } while (cursor != null);
            assertThat(pages).isEqualTo(3);
            assertThat(seen).hasSize(5).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(sent.stream().map(e -> e.id().toString()).toList());

            JsonPath json = Api.deliveries(client, "status=DELIVERED").statusCode(200).extract().jsonPath();
            assertThat(json.getList("items")).hasSize(5);
            assertThat(json.<Object>get("next-cursor")).isNull();
            assertThat(json.getString("items[0].type")).isEqualTo("video.push");
            assertThat(json.getString("items[0].payload.user-id")).isEqualTo("u-1");
            assertThat(json.getInt("items[0].attempts[0].status-code")).isEqualTo(202);
            assertThat(Api.deliveries(client, "status=exhausted").statusCode(200)
                    .extract().jsonPath().getList("items")).hasSize(0);

            // one request's deliveries, by the field's name; and by time
            JsonPath one = Api.deliveries(client, "service-request-id=" + sent.get(2).serviceRequestId())
                    .statusCode(200).extract().jsonPath();
            assertThat(one.getList("items.event-id")).containsExactly(sent.get(2).id().toString());
            assertThat(one.getString("items[0].subject")).isEqualTo(sent.get(2).serviceRequestId());
            // (deliveries stored by one statement share their creation time)
            String newest = json.getString("items[0].created-at");
            long atNewest = json.getList("items.created-at").stream().filter(newest::equals).count();
            assertThat(Api.deliveries(client, "to=" + newest).statusCode(200).extract().jsonPath().getList("items"))
                    .hasSize(5 - (int) atNewest);
            assertThat(Api.deliveries(client, "from=" + newest).statusCode(200).extract().jsonPath()
                    .getList("items")).hasSize((int) atNewest);
            assertThat(Api.deliveries(UUID.randomUUID(), "service-request-id=" + sent.get(2).serviceRequestId())
                    .statusCode(200).extract().jsonPath().getList("items")).isEmpty();
        }
    }

    @Test
    void badQueryParametersAreValidationErrors() {
        UUID client = UUID.randomUUID();
        for (String query : List.of("status=LOST", "limit=0", "limit=101", "limit=ten", "cursor=not-a-cursor",
                "type=video", "from=noon", "to=2026-11-27T25:00:00Z")) {
            JsonPath json = Api.deliveries(client, query).statusCode(400).extract().jsonPath();
            assertThat(json.getBoolean("error")).isTrue();
            assertThat(json.getString("code")).isEqualTo("VALIDATION_ERROR");
            assertThat(json.<Object>get("message")).isNotNull();
            assertThat(json.<Object>get("timestamp")).isNotNull();
        }
    }

    @Test
    void everyEndpointNeedsAClientToken() {
        assertThat(given().when().get("/webhooks/deliveries").then().statusCode(401)
                .extract().jsonPath().getString("code")).isEqualTo("UNAUTHORIZED");
        assertThat(given().when().post("/webhooks/test").then().statusCode(401)
                .extract().jsonPath().getString("code")).isEqualTo("UNAUTHORIZED");
        assertThat(given().header("Authorization", "Bearer " + TestTokens.operator())
                .when().get("/webhooks/deliveries").then().statusCode(403)
                .extract().jsonPath().getString("code")).isEqualTo("FORBIDDEN");
    }

    @Test
    void aReplaySendsTheSameWebhookIdAgainAsANewAttempt() {
        UUID client = UUID.randomUUID();
        String secret = Secrets.newSecret();
        try (StatusEvents events = new StatusEvents(bootstrap); TestReceiver receiver = TestReceiver.accepting()) {
            GatewayStub.register(client, receiver.url(), Secret.current(secret));
            StatusEvents.Event event = StatusEvents.success(client);
            events.send(event);
            Patience.await().until(() -> "DELIVERED".equals(Api.status(client, event.id())));
            String webhookId = (String) Api.delivery(client, event.id()).get("webhook-id");

            JsonPath json = Api.replay(client, webhookId).statusCode(200).extract().jsonPath();
            assertThat(json.<Object>get("webhook-id")).isEqualTo(webhookId);
            assertThat(json.getString("status")).isEqualTo("DELIVERED");
            assertThat(json.getInt("attempt-count")).isEqualTo(2);
            assertThat(json.getList("attempts")).hasSize(2);
            assertThat(json.getString("attempts[1].trigger")).isEqualTo("replay");
            assertThat(json.getInt("attempts[1].status-code")).isEqualTo(202);

            assertThat(receiver.received()).hasSize(2);
            TestReceiver.Received replayed = receiver.received().get(1);
            assertThat(replayed.header("webhook-id")).isEqualTo(webhookId);
            assertThat(replayed.body()).isEqualTo(receiver.received().get(0).body());
            assertThat(Secrets.verifies(replayed, secret)).isTrue();
        }
    }

    @Test
    void anotherClientsDeliveryIsNotFound() {
        UUID owner = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        try (StatusEvents events = new StatusEvents(bootstrap); TestReceiver receiver = TestReceiver.accepting()) {
            GatewayStub.register(owner, receiver.url(), Secret.current(Secrets.newSecret()));
            GatewayStub.register(other, receiver.url(), Secret.current(Secrets.newSecret()));
            StatusEvents.Event event = StatusEvents.success(owner);
            events.send(event);
            Patience.await().until(() -> "DELIVERED".equals(Api.status(owner, event.id())));
            String webhookId = (String) Api.delivery(owner, event.id()).get("webhook-id");

            assertThat(Api.deliveries(other, "").statusCode(200)
                    .extract().jsonPath().getList("items")).hasSize(0);
            assertThat(Api.replay(other, webhookId).statusCode(404)
                    .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
            assertThat(Api.replay(owner, "msg_" + "0".repeat(32)).statusCode(404)
                    .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
            assertThat(Api.replay(owner, "not-an-id").statusCode(404)
                    .extract().jsonPath().getString("code")).isEqualTo("NOT_FOUND");
            assertThat(receiver.received()).hasSize(1);
        }
    }

    @Test
    void aDeliveryStillBeingRetriedIsNotReplayed() throws Exception {
        UUID client = UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        try (Connection db = TestDatabase.fromEnvironment().connect("pmedia_notifier_test");
                PreparedStatement insert = db.prepareStatement("INSERT INTO webhook_delivery (webhook_id, event_id,"
                        + " kind, client_id, payload, status, attempts, next_attempt_at) VALUES (?, ?, 'video.push',"
                        + " ?, '{}', 'PENDING', 1, now() + interval '1 hour')")) {
            insert.setString(1, MediaStatusConsumer.webhookId(eventId));
            insert.setObject(2, eventId);
            insert.setObject(3, client);
            insert.executeUpdate();
        }
        JsonPath json = Api.replay(client, MediaStatusConsumer.webhookId(eventId)).statusCode(409).extract().jsonPath();
        assertThat(json.getString("code")).isEqualTo("CONFLICT");
        assertThat(json.getString("message")).contains("still being retried");
    }

    @Test
    void aTestEventIsSignedSentAndReported() throws Exception {
        UUID client = UUID.randomUUID();
        String secret = Secrets.newSecret();
        try (TestReceiver receiver = TestReceiver.accepting()) {
            GatewayStub.register(client, receiver.url(), Secret.current(secret));

            JsonPath json = Api.test(client).statusCode(200).extract().jsonPath();
            assertThat(json.getBoolean("delivered")).isTrue();
            assertThat(json.getInt("status-code")).isEqualTo(202);
            assertThat(json.<Object>get("url")).isEqualTo(receiver.url());
            assertThat(json.getString("response-body")).isEqualTo("{\"status\":\"202\"}");
            assertThat(json.<Object>get("error")).isNull();
            assertThat(json.getString("webhook-id")).matches("msg_[0-9a-f]{32}");
            Map<String, Object> result = json.getMap("");

            assertThat(receiver.received()).hasSize(1);
            TestReceiver.Received push = receiver.received().get(0);
            assertThat(push.header("webhook-id")).isEqualTo(result.get("webhook-id"));
            assertThat(Secrets.verifies(push, secret)).isTrue();
            JsonNode body = JSON.readTree(push.body());
            assertThat(body.fieldNames()).toIterable().containsExactly("client-request-id", "user-id", "video-url");
            assertThat(body.path("client-request-id").asText()).startsWith("pmedia-test-");
            JsonPath json2 = Api.deliveries(client, "").statusCode(200).extract().jsonPath();
            assertThat(json2.getList("items")).hasSize(1);
            assertThat(json2.getString("items[0].type")).isEqualTo("test");
            assertThat(json2.getString("items[0].status")).isEqualTo("DELIVERED");
            assertThat(json2.getString("items[0].attempts[0].trigger")).isEqualTo("test");
        }
    }

    @Test
    void aTestEventReportsAFailingEndpoint() {
        UUID client = UUID.randomUUID();
        try (TestReceiver receiver = TestReceiver.answering(Answer.status(500, "{\"down\":true}"))) {
            GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
            JsonPath json = Api.test(client).statusCode(200).extract().jsonPath();
            assertThat(json.getBoolean("delivered")).isFalse();
            assertThat(json.getInt("status-code")).isEqualTo(500);
            assertThat(json.getString("response-body")).isEqualTo("{\"down\":true}");
            assertThat(json.getString("error")).isEqualTo("endpoint answered 500");
        }
    }

    @Test
    void aTestNeedsARegisteredWebhookUrl() {
        UUID client = UUID.randomUUID();
        GatewayStub.register(client, null, Secret.current(Secrets.newSecret()));
        assertThat(Api.test(client).statusCode(409)
                .extract().jsonPath().getString("code")).isEqualTo("CONFLICT");
    }
}
