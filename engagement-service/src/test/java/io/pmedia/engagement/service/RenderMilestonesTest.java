package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.SharedVideo;
import io.pmedia.events.Topics;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The end of a render on first view as a milestone for the vendor's webhooks, through the real broker and database:
 * the page event that brings a link its video is one {@code video.rendered}, however often it arrives; one that marks
 * the render failed is one {@code video.render-failed}; a video rendered as it was asked for is neither. Each test
 * ends with a later milestone of the same link (its first view), which the outbox sends after every milestone of that
 * link written before it, so a second one would be there.
 */
@QuarkusTest
class RenderMilestonesTest extends EngagementFixture {

    private KafkaEvents milestones;

    @BeforeAll
    void listenTo() {
        milestones = listen(Topics.ENGAGEMENT_STATUS);
    }

    @Test
    void aLinkWhoseRenderOnViewEndsIsOneVideoRenderedHoweverOftenItsPageComes() {
        UUID task = UUID.randomUUID();
        String share = onView(task, 7, SharedVideo.Render.ON_VIEW);
        PageView page = open(share, Viewer.somebody());
        Patience.await().until(() -> "1".equals(column(share, "render_attempts")));

        SharedVideo rendered = rowPage(task, share, 7, "batch/" + vendor + "/" + task + "/7/video.mp4", null);
        CloudEvent envelope = CODEC.envelope("/test", rendered);
        send(rendered, envelope);
        send(rendered, envelope);
        publish(rendered);
        applied(rowPage(task, share, 7, "batch/" + vendor + "/" + task + "/7/video.mp4", null, "applied"));
        lastOf(page);

        assertThat(of(share, EngagementMilestone.RENDERED)).singleElement().satisfies(event -> {
            JsonNode data = event.data();
            assertThat(data.path("client-id").asText()).isEqualTo(vendor.toString());
            assertThat(data.path("task-id").asText()).isEqualTo(task.toString());
            assertThat(data.path("row").asInt()).isEqualTo(7);
            assertThat(data.path("campaign-id").asText()).isEqualTo("spring");
            assertThat(data.path("user-id").asText()).isEqualTo("u-7");
            assertThat(data.path("service-request-id").isNull()).isTrue();
            assertThat(data.path("share-url").asText()).endsWith("/v/" + share);
            assertThat(data.path("video-url").asText()).isEqualTo(data.path("share-url").asText() + "/video.mp4");
            assertThat(data.path("attempt").asInt()).isEqualTo(1);
            assertThat(data.path("message").isNull()).isTrue();
            assertThat(data.path("views").asLong()).isZero();
        });
        assertThat(of(share, EngagementMilestone.RENDER_FAILED)).isEmpty();
    }

    @Test
    void aFailedRenderIsOneVideoRenderFailedAndARetryThatRendersIsAVideoRendered() {
        UUID task = UUID.randomUUID();
        String share = onView(task, 3, SharedVideo.Render.ON_VIEW);
        PageView page = open(share, Viewer.somebody());
        Patience.await().until(() -> "1".equals(column(share, "render_attempts")));

        SharedVideo failed = rowPage(task, share, 3, null, SharedVideo.Render.FAILED);
        CloudEvent envelope = CODEC.envelope("/test", failed);
        send(failed, envelope);
        send(failed, envelope);
        applied(rowPage(task, share, 3, null, SharedVideo.Render.FAILED, "applied"));
        given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("preparing"));
        publish(rowPage(task, share, 3, "batch/" + vendor + "/" + task + "/3/video.mp4", null));
        Patience.await().until(() -> of(share, EngagementMilestone.RENDERED).size() == 1);
        lastOf(page);

        assertThat(of(share, EngagementMilestone.RENDER_FAILED)).singleElement().satisfies(event -> {
            JsonNode data = event.data();
            assertThat(data.path("task-id").asText()).isEqualTo(task.toString());
            assertThat(data.path("row").asInt()).isEqualTo(3);
            assertThat(data.path("share-url").asText()).endsWith("/v/" + share);
            assertThat(data.path("video-url").isNull()).isTrue();
            assertThat(data.path("attempt").asInt()).isEqualTo(1);
            assertThat(data.path("message").asText()).contains("row 3 failed").contains("try again");
        });
        assertThat(of(share, EngagementMilestone.RENDERED)).singleElement()
                .satisfies(event -> assertThat(event.data().path("attempt").asInt()).isEqualTo(2));
    }

    @Test
    void aRealtimeRequestsFailureIsReportedOnceThoughARetryShowsItAgain() {
        UUID request = UUID.randomUUID();
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        publish(realtime(request, share, SharedVideo.Render.ON_VIEW));
        Patience.await().until(() -> rowExists(share));
        PageView page = open(share, Viewer.somebody());
        Patience.await().until(() -> "1".equals(column(share, "render_attempts")));

        publish(realtime(request, share, SharedVideo.Render.FAILED));
        Patience.await().until(() -> of(share, EngagementMilestone.RENDER_FAILED).size() == 1);
        // media-service answers a retry of a realtime FAILURE with the page marked failed again, not a second render
        given().post("/v/" + share + "/render").then().statusCode(200).body("state", equalTo("preparing"));
        publish(realtime(request, share, SharedVideo.Render.FAILED));
        Patience.await().untilAsserted(() -> given().get("/v/" + share + "/state").then()
                .body("state", equalTo("failed")));
        lastOf(page);

        assertThat(of(share, EngagementMilestone.RENDER_FAILED)).singleElement().satisfies(event -> {
            JsonNode data = event.data();
            assertThat(data.path("service-request-id").asText()).isEqualTo(request.toString());
            assertThat(data.path("task-id").isNull()).isTrue();
            assertThat(data.path("message").asText()).contains("GET /status/" + request);
        });
    }

    @Test
    void aVideoRenderedAsAskedIsNoRenderMilestone() {
        UUID task = UUID.randomUUID();
        String share = "Sh" + UUID.randomUUID().toString().replace("-", "");
        SharedVideo now = rowPage(task, share, 5, "batch/" + vendor + "/" + task + "/5/video.mp4", null);
        publish(now);
        publish(now);
        applied(rowPage(task, share, 5, "batch/" + vendor + "/" + task + "/5/video.mp4", null, "applied"));
        lastOf(open(share, Viewer.somebody()));

        assertThat(of(share, EngagementMilestone.RENDERED)).isEmpty();
        assertThat(of(share, EngagementMilestone.RENDER_FAILED)).isEmpty();
    }

    /** Publishes {@code sentinel}, a page titled anew, and waits until the projection holds it: the earlier are in. */
    private void applied(SharedVideo sentinel) {
        publish(sentinel);
        String share = sentinel.videos().get(0).shareId();
        String title = sentinel.videos().get(0).title();
        Patience.await().until(() -> title.equals(column(share, "title")));
    }

    /** The page view's view, and its {@code video.viewed}: the link's last milestone, after all the others. */
    private void lastOf(PageView page) {
        page.send("view").then().statusCode(202);
        Patience.await().until(() -> !of(page.share(), EngagementMilestone.VIEWED).isEmpty());
    }

    private List<KafkaEvents.Event> of(String share, String type) {
        return milestones.withKey(share).stream()
                .filter(event -> type.equals(event.data().path("event-type").asText())).toList();
    }

    private SharedVideo realtime(UUID request, String share, SharedVideo.Render render) {
        return new SharedVideo(vendor, SharedVideo.Source.realtime, request, null, null, UUID.randomUUID(), 1,
                "greeting", List.of(new SharedVideo.Video(share, SharedVideo.State.ACTIVE, null, "u-1", "Hello", CTA,
                        null, null, null, null, 1280, 720, null, Instant.now(),
                        Instant.now().plus(1, ChronoUnit.DAYS), render, null)));
    }
}
