package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A campaign scheduled with {@code "render": "on-view"} (docs/batch.md, "A campaign rendered on view"), through the
 * real broker, database and store: its tasks that do not say render hand out links and render a row when its link is
 * first opened; a task's own render wins; a task follows its campaign's render until its file is read; links already
 * out render whatever the campaign does later, after it has ended too.
 */
@QuarkusTest
class CampaignOnViewTest {

    private static final int ROWS = 40;
    /** The batch lane's workers: rows rendered now. */
    private static RenderWorkerDouble worker;
    /** The realtime lane's workers: rows rendered on view. */
    private static RenderWorkerDouble realtime;
    private static KafkaEvents events;

    @Inject
    ObjectStore store;

    @BeforeAll
    static void start() {
        worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null);
        realtime = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null, "pmedia.render.jobs");
        events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), "pmedia.batch.status");
    }

    @AfterAll
    static void stop() throws Exception {
        worker.close();
        realtime.close();
        events.close();
    }

    @Test
    void aTaskOfACampaignRenderedOnViewWritesEveryRowsLinkAndRendersNothingUntilOneIsOpened() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "links", "ACTIVE", "on-view");
        BatchApi.Answer created = BatchApi.create(client, BatchApi.body(client, "links", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, ROWS), ROWS)).is(200);
        assertThat(created.string("message")).endsWith("; each row is rendered when its share-url is first opened,"
                + " as campaign 'links' renders on view");
        String taskId = created.string("task-id");

        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "COMPLETED");
        assertThat(status.string("render")).isEqualTo("on-view");
        assertThat(status.integer("processed")).isEqualTo(ROWS);
        assertThat(status.integer("links")).isEqualTo(ROWS);
        assertThat(status.integer("viewed")).isZero();
        assertThat(status.integer("rendered")).isZero();
        assertThat(status.string("message")).isEqualTo(ROWS + " share links ready, each row rendered when its link is"
                + " first opened: 0 opened, 0 rendered, 0 failed");
        List<String> lines = BatchApi.output(store, client, taskId).lines().skip(1).toList();
        assertThat(lines).hasSize(ROWS).allMatch(line -> line.matches("\\d+,u-\\d+,ON-VIEW,,,,http://[^,]+/v/"
                + "[A-Za-z0-9_-]{24},rendered when share-url is first opened"));
        Patience.await().untilAsserted(() -> assertThat(OnViewRequests.sharedVideos(events, taskId)).hasSize(ROWS)
                .allMatch(page -> "on-view".equals(page.path("render").asText()) && !page.has("video-key")));
        assertThat(worker.jobsOf(taskId)).as("nothing is rendered on the batch lane").isEmpty();
        assertThat(realtime.jobsOf(taskId)).as("nothing is rendered before a link is opened").isEmpty();
        assertThat(BatchApi.query("SELECT DISTINCT status FROM batch_row WHERE task_id = CAST(? AS uuid)", taskId))
                .containsExactly("ON-VIEW");

        OnViewRequests.open(events, client, taskId, 7);
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("rendered"))
                .isEqualTo(1));
        assertThat(realtime.jobsOf(taskId)).extracting(job -> job.path("job-id").asText())
                .containsExactly(taskId + "/7");
        assertThat(worker.jobsOf(taskId)).isEmpty();
        Patience.await().untilAsserted(() -> assertThat(OnViewRequests.page(events, taskId, 7).path("video-key")
                .asText()).isEqualTo("batch/" + client + "/" + taskId + "/7/video.mp4"));
    }

    @Test
    void aTaskThatSaysNowRendersEveryRowUnderACampaignRenderedOnView() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "mixed", "ACTIVE", "on-view");
        BatchApi.Answer created = BatchApi.create(client, BatchApi.render(BatchApi.body(client, "mixed",
                TemplateEndpoint.GREETING, BatchApi.customers(store, client, 3), 3), "now")).is(200);
        assertThat(created.string("message")).doesNotContain("share-url");
        String taskId = created.string("task-id");

        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "COMPLETED");
        assertThat(status.string("render")).isEqualTo("now");
        assertThat(status.string("message")).startsWith("3 of 3 rows rendered");
        assertThat(status.integer("rendered")).isEqualTo(3);
        assertThat(worker.jobsOf(taskId)).hasSize(3);
        assertThat(realtime.jobsOf(taskId)).isEmpty();
        assertThat(BatchApi.output(store, client, taskId).lines().skip(1))
                .allMatch(line -> line.contains(",SUCCESS,s3://"));
    }

    /**
     * A task waiting for its campaign's window follows the campaign's render (an event without one, of before
     * campaigns had it, is now), and runs as the campaign renders when its window opens.
     */
    @Test
    void aTaskWaitingForItsCampaignTakesTheRenderTheCampaignHasWhenItsWindowOpens() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "later", "SCHEDULED", "on-view");
        BatchApi.Answer created = BatchApi.create(client, BatchApi.body(client, "later", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 4), 4)).is(200);
        assertThat(created.string("message")).endsWith(", as campaign 'later' renders on view");
        String taskId = created.string("task-id");
        BatchApi.Answer waiting = BatchApi.status(client, taskId);
        assertThat(waiting.string("status")).isEqualTo("PENDING");
        assertThat(waiting.string("render")).isEqualTo("on-view");

        BatchApi.campaignIs(client, "later", "SCHEDULED", null);
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).string("render"))
                .isEqualTo("now"));
        BatchApi.campaignIs(client, "later", "SCHEDULED", "on-view");
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).string("render"))
                .isEqualTo("on-view"));
        assertThat(BatchApi.status(client, taskId).string("status")).isEqualTo("PENDING");

        BatchApi.campaign(client, "later", "ACTIVE", "on-view");
        BatchApi.Answer done = BatchApi.awaitStatus(client, taskId, "COMPLETED");
        assertThat(done.string("render")).isEqualTo("on-view");
        assertThat(done.integer("links")).isEqualTo(4);
        assertThat(worker.jobsOf(taskId)).isEmpty();
    }

    /**
     * The links a task handed out stay links: the campaign rescheduled to render now renders none of them, and one
     * opened after the campaign has ended still renders (the vendor has mailed it; it lives for its retention).
     */
    @Test
    void linksAlreadyOutRenderWhenOpenedAfterTheCampaignChangedAndEnded() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "over", "ACTIVE", "on-view");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "over", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 3), 3));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        Patience.await().untilAsserted(() -> assertThat(OnViewRequests.sharedVideos(events, taskId)).hasSize(3));

        BatchApi.campaignIs(client, "over", "ACTIVE", "now");
        BatchApi.campaignIs(client, "over", "ENDED", "now");
        BatchApi.Answer ended = BatchApi.status(client, taskId);
        assertThat(ended.string("status")).isEqualTo("COMPLETED");
        assertThat(ended.string("render")).isEqualTo("on-view");
        assertThat(worker.jobsOf(taskId)).as("a change of the campaign renders no link").isEmpty();

        OnViewRequests.open(events, client, taskId, 2);
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("rendered"))
                .isEqualTo(1));
        List<JsonNode> rendered = realtime.jobsOf(taskId);
        assertThat(rendered).extracting(job -> job.path("job-id").asText()).containsExactly(taskId + "/2");
        assertThat(BatchApi.query("SELECT status FROM batch_row WHERE task_id = CAST(? AS uuid) ORDER BY row_no",
                taskId)).containsExactly("ON-VIEW", "SUCCESS", "ON-VIEW");
    }
}
