package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Engagement webhooks (issue 21): a shared video's first view and first completion once per video, each page view's
 * click of its call to action once, only to endpoints that subscribe, signed and named in webhook-event-type. The end
 * of a render on first view (issue 37): {@code video.rendered} once per link and {@code video.render-failed} once per
 * failed render of it, however often engagement-service's milestone is delivered, with the engagement body's fields
 * and the link's.
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
        String share = newShare();
        String secret = Secrets.newSecret();
        try (TestReceiver receiver = TestReceiver.accepting(); EndedEvents events = new EndedEvents(bootstrap)) {
            Api.subscribe(client, receiver.url(), secret, List.of("video.viewed", "cta.clicked"));

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

    @Test
    void aSubscribedEndpointGetsEachRenderEndOnce() throws Exception {
        String rendered = newShare();
        String failed = newShare();
        UUID client = UUID.randomUUID();
        String secret = Secrets.newSecret();
        UUID task = UUID.randomUUID();
        try (TestReceiver receiver = TestReceiver.accepting(); EndedEvents events = new EndedEvents(bootstrap)) {
            Api.subscribe(client, receiver.url(), secret, List.of("video.rendered", "video.render-failed"));

            events.renderEnded(client, "video.rendered", rendered, task, 7, 1);
            events.again("pmedia.engagement.status", rendered, events.last());
            events.renderEnded(client, "video.rendered", rendered, task, 7, 1);
            events.renderEnded(client, "video.render-failed", failed, task, 3, 1);
            events.again("pmedia.engagement.status", failed, events.last());
            UUID last = events.renderEnded(client, "video.render-failed", failed, task, 3, 2);

            Patience.await().until(() -> "DELIVERED".equals(Api.status(client, last)));
            // Everything sent before the last was stored before it: a second delivery of any would be listed.
            assertThat(types(client)).containsExactlyInAnyOrder("video.rendered", "video.render-failed",
                    "video.render-failed");
            Patience.await().until(() -> receiver.received().size() == 3);

            TestReceiver.Received push = receiver.receivedWith(rendered).get(0);
            assertThat(push.header("webhook-event-type")).isEqualTo("video.rendered");
            assertThat(Secrets.verifies(push, secret)).isTrue();
            JsonNode body = JSON.readTree(push.body());
            List<String> fields = new ArrayList<>();
            body.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).as("video.viewed's body, then the link's").containsExactly("event-type", "share-id",
                    "transaction-id", "task-id", "row", "campaign-id", "user-id", "views", "completions",
                    "cta-clicks", "at", "share-url", "video-url", "message");
            assertThat(body.path("event-type").asText()).isEqualTo("video.rendered");
            assertThat(body.path("task-id").asText()).isEqualTo(task.toString());
            assertThat(body.path("row").asInt()).isEqualTo(7);
            assertThat(body.path("share-url").asText()).isEqualTo("https://pmedia.example/v/" + rendered);
            assertThat(body.path("video-url").asText()).isEqualTo("https://pmedia.example/v/" + rendered
                    + "/video.mp4");
            assertThat(body.path("message").isNull()).isTrue();

            List<TestReceiver.Received> failures = receiver.receivedWith(failed);
            assertThat(failures).hasSize(2).allSatisfy(failure -> {
                assertThat(failure.header("webhook-event-type")).isEqualTo("video.render-failed");
                JsonNode data = JSON.readTree(failure.body());
                assertThat(data.path("video-url").isNull()).isTrue();
                assertThat(data.path("message").asText()).contains("row 3 failed");
            });
            assertThat(failures.get(0).header("webhook-id")).isNotEqualTo(failures.get(1).header("webhook-id"));
        }
    }

    @Test
    void anEndpointThatDoesNotSubscribeGetsNoRenderEnd() {
        String share = newShare();
        UUID client = UUID.randomUUID();
        UUID task = UUID.randomUUID();
        try (TestReceiver receiver = TestReceiver.accepting(); EndedEvents events = new EndedEvents(bootstrap)) {
            Api.subscribe(client, receiver.url(), Secrets.newSecret(), List.of("video.viewed"));

            events.renderEnded(client, "video.rendered", share, task, 1, 1);
            events.renderEnded(client, "video.render-failed", share, task, 1, 1);
            UUID viewed = events.milestone(client, "video.viewed", share, UUID.randomUUID(), 1, 0, 0);

            Patience.await().until(() -> "DELIVERED".equals(Api.status(client, viewed)));
            assertThat(types(client)).containsExactly("video.viewed");
            assertThat(receiver.received()).extracting(received -> received.header("webhook-event-type"))
                    .containsExactly("video.viewed");
        }
    }

    private static String newShare() {
        return "Sh" + UUID.randomUUID().toString().replace("-", "");
    }

    /** The types of every delivery of the client, whatever its status. */
    private static List<String> types(UUID client) {
        return Api.deliveries(client, "limit=100").statusCode(200).extract().jsonPath().getList("items.type");
    }
}
