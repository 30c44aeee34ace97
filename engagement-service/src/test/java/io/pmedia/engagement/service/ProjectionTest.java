package io.pmedia.engagement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.EngagementFixture;
import io.pmedia.events.SharedVideo;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The projection of a batch task's page events (docs/sharing.md), through the real broker and database: an event of a
 * few hundred links, as batch-service sends a task's rows, becomes one row per link with every column its page reads
 * (its new links inserted in one statement); in an event that names links the projection already has, those are
 * changed as one by one before: a rendered video is kept against an older page, another vendor's link is not taken
 * over, and of a share id named twice the later page wins.
 */
@QuarkusTest
class ProjectionTest extends EngagementFixture {

    @Test
    void aTasksEventOfTwoHundredLinksIsProjectedWholeAndEveryLinkOpens() {
        UUID task = UUID.randomUUID();
        Instant expires = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MICROS);
        List<SharedVideo.Video> pages = IntStream.rangeClosed(1, 200).mapToObj(row -> new SharedVideo.Video(
                "Pr" + task.toString().replace("-", "") + "-" + row, SharedVideo.State.ACTIVE, row, "customer-" + row,
                "Spring tour", new SharedVideo.Cta("Hi " + row, "https://shop.example/o?u=" + row),
                new SharedVideo.Branding("https://cdn.example/logo.png", "#aa3300"), null, null, null, 1280, 720,
                null, Instant.now(), expires, SharedVideo.Render.ON_VIEW, streamKey(task, row))).toList();

        publish(new SharedVideo(vendor, SharedVideo.Source.batch, null, task, "spring", UUID.randomUUID(), 3,
                "product-tour", pages));

        String last = pages.get(199).shareId();
        Patience.await().until(() -> rowExists(last));
        assertThat(count(task)).isEqualTo(200);
        String first = pages.get(0).shareId();
        assertThat(column(first, "client_id")).isEqualTo(vendor.toString());
        assertThat(column(first, "source")).isEqualTo("batch");
        assertThat(column(first, "task_id")).isEqualTo(task.toString());
        assertThat(column(first, "service_request_id")).isNull();
        assertThat(column(first, "row_no")).isEqualTo("1");
        assertThat(column(first, "campaign_id")).isEqualTo("spring");
        assertThat(column(first, "template_version")).isEqualTo("3");
        assertThat(column(first, "use_case_id")).isEqualTo("product-tour");
        assertThat(column(first, "user_id")).isEqualTo("customer-1");
        assertThat(column(first, "state")).isEqualTo("ACTIVE");
        assertThat(column(first, "title")).isEqualTo("Spring tour");
        assertThat(column(first, "cta_label")).isEqualTo("Hi 1");
        assertThat(column(first, "cta_url")).isEqualTo("https://shop.example/o?u=1");
        assertThat(column(first, "logo_url")).isEqualTo("https://cdn.example/logo.png");
        assertThat(column(first, "color")).isEqualTo("#aa3300");
        assertThat(column(first, "video_key")).isNull();
        assertThat(column(first, "width") + "x" + column(first, "height")).isEqualTo("1280x720");
        assertThat(column(first, "render")).isEqualTo("on-view");
        assertThat(column(first, "render_attempts")).isEqualTo("0");
        assertThat(column(first, "stream_key")).isEqualTo(streamKey(task, 1));
        assertThat(column(first, "expires_at = timestamptz '" + expires + "'")).isEqualTo("t");
        assertThat(column(first, "updated_at")).isNotNull();

        given().header("Accept", "text/html").header("User-Agent", BROWSER).get("/v/" + last).then().statusCode(200);
    }

    @Test
    void anEventNamingKnownLinksChangesThemAsBeforeAndInsertsTheNewOnes() {
        UUID task = UUID.randomUUID();
        String rendered = "Pk" + UUID.randomUUID().toString().replace("-", "");
        String videoKey = "batch/" + vendor + "/" + task + "/1/video.mp4";
        publish(rowPage(task, rendered, 1, videoKey, null));
        String others = "Po" + UUID.randomUUID().toString().replace("-", "");
        publish(new SharedVideo(other, SharedVideo.Source.batch, null, UUID.randomUUID(), "theirs", UUID.randomUUID(),
                1, "greeting", rowPage(task, others, 9, null, SharedVideo.Render.ON_VIEW).videos()));
        Patience.await().until(() -> rowExists(rendered) && rowExists(others));

        String fresh = "Pn" + UUID.randomUUID().toString().replace("-", "");
        List<SharedVideo.Video> pages = new ArrayList<>();
        // an older page of the rendered link (no video yet), another vendor's share id, a new link named twice
        pages.addAll(rowPage(task, rendered, 1, null, SharedVideo.Render.ON_VIEW, "older").videos());
        pages.addAll(rowPage(task, others, 2, null, SharedVideo.Render.ON_VIEW, "not theirs").videos());
        pages.addAll(rowPage(task, fresh, 3, null, SharedVideo.Render.ON_VIEW, "first").videos());
        pages.addAll(rowPage(task, fresh, 3, null, SharedVideo.Render.ON_VIEW, "second").videos());
        publish(new SharedVideo(vendor, SharedVideo.Source.batch, null, task, "spring", UUID.randomUUID(), 1,
                "greeting", pages));
        Patience.await().until(() -> rowExists(fresh));

        assertThat(column(fresh, "title")).as("the later page of a share id named twice").isEqualTo("second");
        assertThat(column(fresh, "render")).isEqualTo("on-view");
        assertThat(column(rendered, "video_key")).as("a rendered video is kept").isEqualTo(videoKey);
        assertThat(column(rendered, "title")).isEqualTo("Hello");
        assertThat(column(others, "client_id")).as("another vendor's link").isEqualTo(other.toString());
        assertThat(column(others, "title")).isEqualTo("Hello");
        assertThat(count(task)).isEqualTo(2);
    }

    /** How many links of {@code task} the projection holds. */
    private static int count(UUID task) {
        try (var db = PostgresTestResource.TestDatabase.fromEnvironment().connect("pmedia_engagement_test");
                var query = db.prepareStatement("SELECT count(*) FROM shared_video WHERE task_id = ?")) {
            query.setObject(1, task);
            var rows = query.executeQuery();
            rows.next();
            return rows.getInt(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
