package io.pmedia.notifier;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * Engagement webhooks (issue 21): a shared video's first view and first completion once per video, each page view's
 * click of its call to action once, only to endpoints that subscribe, signed and named in webhook-event-type.
 */
@QuarkusTest
class EngagementWebhooksTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void subscribedMilestonesAreDeliveredOnceEachAndTheOthersNot() throws Exception {
        UUID client = UUID.randomUUID();
        UUID request = UUID.randomUUID();
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        String secret = Secrets.newSecret();
        try (TestReceiver receiver = TestReceiver.accepting(); EndedEvents events = new EndedEvents(bootstrap)) {
            GatewayStub.register(client, receiver.url(), Secret.current(secret));
            given().header("Authorization", TestTokens.bearer(client)).contentType(ContentType.JSON)
                    .body(Map.of("url", receiver.url(), "event-types", List.of("video.viewed", "cta.clicked")))
                    .put("/webhooks/endpoint").then().statusCode(200);

            events.milestone(client, "video.viewed", share, request, 1, 0, 0);
            events.again("pmedia.engagement.status", share, events.last());
            events.milestone(client, "video.viewed", share, request, 1, 0, 0);
            events.milestone(client, "cta.clicked", share, request, 1, 0, 1);
            events.milestone(client, "cta.clicked", share, request, 2, 0, 1);
            events.milestone(client, "video.completed", share, request, 2, 1, 0);

            Patience.await().until(() -> Api.deliveries(client, "status=DELIVERED")
                    .statusCode(200).extract().jsonPath().getList("items").size() == 3);
            assertThat(Api.deliveries(client, "type=video.viewed").statusCode(200).extract().jsonPath()
                    .getList("items")).hasSize(1);
            assertThat(Api.deliveries(client, "type=cta.clicked").statusCode(200).extract().jsonPath()
                    .getList("items")).hasSize(2);
            assertThat(Api.deliveries(client, "type=video.completed").statusCode(200).extract().jsonPath()
                    .getList("items")).isEmpty();

            TestReceiver.Received viewed = receiver.receivedWith("video.viewed").get(0);
            assertThat(viewed.header("webhook-event-type")).isEqualTo("video.viewed");
            assertThat(Secrets.verifies(viewed, secret)).isTrue();
            JsonNode body = JSON.readTree(viewed.body());
            assertThat(body.path("share-id").asText()).isEqualTo(share);
            assertThat(body.path("transaction-id").asText()).isEqualTo(request.toString());
            assertThat(body.path("views").asLong()).isEqualTo(1);
        }
    }
}
