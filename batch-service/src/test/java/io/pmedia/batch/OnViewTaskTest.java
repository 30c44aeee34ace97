package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.events.RenderJob;
import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Render on first view (docs/batch.md, issue 37), through the real broker, database and store: a task of
 * {@code "render": "on-view"} hands out every row's share link as soon as its file is read and renders nothing.
 */
@QuarkusTest
class OnViewTaskTest {

    private static final int ROWS = 500;
    private static RenderWorkerDouble worker;
    /** The realtime lane's workers: rows rendered on view; "Bad" fails, "Hold" waits while held. */
    private static RenderWorkerDouble realtime;
    private static KafkaEvents events;

    @Inject
    ObjectStore store;

    @BeforeAll
    static void start() {
        worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null);
        realtime = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(),
                job -> "Bad".equals(job.path("input").path("fields").path("name").asText())
                        ? "personalization field 'name' cannot be drawn"
                        : null,
                "pmedia.render.jobs");
        events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), "pmedia.batch.status");
    }

    @AfterAll
    static void stop() throws Exception {
        worker.close();
        realtime.close();
        events.close();
    }

    static String onView(UUID client, String campaign, String file, int rows) {
        return BatchApi.render(BatchApi.body(client, campaign, TemplateEndpoint.GREETING, file, rows), "on-view");
    }

    @Test
    void anOnViewTaskListsEveryRowsShareLinkAtOnceAndRendersNothing() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\n" + "u-1,Ada\n" + ",Nobody\n"
                + java.util.stream.IntStream.rangeClosed(3, ROWS).mapToObj(i -> "u-" + i + ",Customer " + i + "\n")
                        .collect(Collectors.joining()));
        BatchApi.Answer created = BatchApi.create(client, onView(client, "spring", file, ROWS)).is(200);
        assertThat(created.string("message")).endsWith("each row is rendered when its share-url is first opened");
        String taskId = created.string("task-id");

        BatchApi.Answer status = BatchApi.awaitStatus(client, taskId, "COMPLETED");
        assertThat(status.string("render")).isEqualTo("on-view");
        assertThat(status.integer("total-count")).isEqualTo(ROWS);
        assertThat(status.integer("processed")).isEqualTo(ROWS);
        assertThat(status.integer("links")).isEqualTo(ROWS - 1);
        assertThat(status.integer("viewed")).isZero();
        assertThat(status.integer("rendered")).isZero();
        assertThat(status.integer("render-failed")).isZero();
        assertThat(status.string("message")).isEqualTo("499 share links ready, each row rendered when its link is"
                + " first opened: 0 opened, 0 rendered, 0 failed; 1 row could not be read");
        assertThat(status.string("file-path")).endsWith("/batch/" + client + "/" + taskId + "/output.csv");

        List<String> lines = BatchApi.output(store, client, taskId).lines().toList();
        assertThat(lines).hasSize(ROWS + 1);
        assertThat(lines.get(1)).matches("1,u-1,ON-VIEW,,,,http://[^,]+/v/[A-Za-z0-9_-]{24},"
                + "rendered when share-url is first opened");
        assertThat(lines.get(2)).isEqualTo("2,,FAILURE,,,,,row 2: user-id is empty");
        Set<String> links = lines.stream().skip(1).map(line -> line.split(",")[6]).filter(cell -> !cell.isEmpty())
                .collect(Collectors.toSet());
        assertThat(links).as("one distinct link per readable row").hasSize(ROWS - 1);

        // The rows' pages go to engagement-service without a video, marked to render on view.
        Patience.await().untilAsserted(() -> assertThat(sharedVideos(taskId)).hasSize(ROWS - 1));
        JsonNode first = sharedVideos(taskId).stream().filter(video -> video.path("row").asInt() == 1).findFirst()
                .orElseThrow();
        assertThat(first.path("render").asText()).isEqualTo("on-view");
        assertThat(first.has("video-key")).isFalse();
        // Its page plays the stream its render will write (the realtime lane streams), under the row's outputs.
        assertThat(first.path("stream-key").asText())
                .isEqualTo("batch/" + client + "/" + taskId + "/1/" + RenderJob.STREAM_PLAYLIST);
        assertThat(lines.get(1)).contains("/v/" + first.path("share-id").asText() + ",");

        assertThat(worker.jobs.stream().filter(job -> job.path("job-id").asText().startsWith(taskId)))
                .as("nothing is rendered before a link is opened").isEmpty();
        assertThat(BatchApi.query("SELECT DISTINCT status FROM batch_row WHERE task_id = CAST(? AS uuid)", taskId))
                .containsExactlyInAnyOrder("ON-VIEW", "FAILURE");
    }

    @Test
    void renderTakesNowOrOnViewAndNothingElse() {
        UUID client = UUID.randomUUID();
        String file = BatchApi.customers(store, client, 1);
        BatchApi.create(client, onView(client, "c", file, 1).replace("\"on-view\"", "\"later\""))
                .isError(400, "VALIDATION_ERROR", "field 'render' must be one of [now, on-view], got 'later'");
        BatchApi.create(client, onView(client, "c", file, 1).replace("\"on-view\"", "42"))
                .is(400);
        String now = BatchApi.accepted(client, onView(client, "d", file, 1).replace("\"on-view\"", "\"now\""));
        assertThat(BatchApi.awaitStatus(client, now, "COMPLETED").string("render")).isEqualTo("now");
    }

    /**
     * Fifty opens of one link at the same moment (engagement-service's claims, as they would arrive if each replica
     * claimed it) are one render, on the realtime lane; its video then reaches the row's page, the other rows stay
     * unrendered; a render that fails is counted, its page is marked failed, and a viewer's retry renders it again.
     */
    @Test
    void theFirstViewRendersItsRowOnceOnTheRealtimeLane() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.upload(store, client, "user-id,name\nu-1,Ada\nu-2,Grace\nu-3,Bad\nu-4,Linus\n");
        String taskId = BatchApi.accepted(client, onView(client, "views", file, 4));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        Patience.await().untilAsserted(() -> assertThat(sharedVideos(taskId)).hasSize(4));

        try (var producer = OnViewRequests.producer()) {
            for (int i = 0; i < 50; i++) {
                OnViewRequests.send(producer, client, shareId(taskId, 2), UUID.fromString(taskId), 2, 1);
            }
            // Another vendor's claim of the same row is nobody's.
            OnViewRequests.send(producer, UUID.randomUUID(), shareId(taskId, 4), UUID.fromString(taskId), 4, 1);
            OnViewRequests.send(producer, client, shareId(taskId, 3), UUID.fromString(taskId), 3, 1);
        }
        Patience.await().untilAsserted(() -> {
            BatchApi.Answer status = BatchApi.status(client, taskId);
            assertThat(status.integer("rendered")).isEqualTo(1);
            assertThat(status.integer("render-failed")).isEqualTo(1);
        });
        BatchApi.Answer status = BatchApi.status(client, taskId);
        assertThat(status.integer("viewed")).isEqualTo(2);
        assertThat(status.integer("links")).isEqualTo(4);
        assertThat(status.string("message")).startsWith("4 share links ready, each row rendered when its link is"
                + " first opened: 2 opened, 1 rendered, 1 failed");
        List<JsonNode> jobs = realtimeJobs(taskId);
        assertThat(jobs).extracting(job -> job.path("job-id").asText())
                .as("fifty opens are one render; another vendor's claim renders nothing")
                .containsExactlyInAnyOrder(taskId + "/2", taskId + "/3");
        assertThat(jobs.get(0).path("lane").asText()).isEqualTo("realtime");
        assertThat(jobs.get(0).path("reply-to").asText()).isEqualTo("pmedia.batch.render-results");
        assertThat(worker.jobs.stream().filter(job -> job.path("job-id").asText().startsWith(taskId))).isEmpty();
        assertThat(BatchApi.query("SELECT status FROM batch_row WHERE task_id = CAST(? AS uuid) ORDER BY row_no",
                taskId)).containsExactly("ON-VIEW", "SUCCESS", "FAILURE", "ON-VIEW");

        Patience.await().untilAsserted(() -> assertThat(page(taskId, 2).path("video-key").asText())
                .isEqualTo("batch/" + client + "/" + taskId + "/2/video.mp4"));
        assertThat(page(taskId, 2).has("render")).as("rendered: nothing pending").isFalse();
        assertThat(page(taskId, 2).has("stream-key")).as("rendered: its page plays the MP4").isFalse();
        assertThat(page(taskId, 3).path("stream-key").asText()).as("the stream its render wrote, as its job says")
                .isEqualTo(jobs.stream().filter(job -> job.path("job-id").asText().endsWith("/3")).findFirst()
                        .orElseThrow().path("output-prefix").asText() + RenderJob.STREAM_PLAYLIST);
        Patience.await().untilAsserted(() -> assertThat(page(taskId, 3).path("render").asText())
                .isEqualTo("failed"));

        // A viewer's retry of the failed row renders it again; a retry of a rendered row does nothing.
        try (var producer = OnViewRequests.producer()) {
            OnViewRequests.send(producer, client, shareId(taskId, 3), UUID.fromString(taskId), 3, 2);
            OnViewRequests.send(producer, client, shareId(taskId, 2), UUID.fromString(taskId), 2, 2);
        }
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("render-failed"))
                .isEqualTo(2));
        assertThat(realtimeJobs(taskId)).extracting(job -> job.path("job-id").asText())
                .containsExactlyInAnyOrder(taskId + "/2", taskId + "/3", taskId + "/3");
        assertThat(BatchApi.status(client, taskId).integer("viewed")).as("a retry is not a new view").isEqualTo(2);
    }

    /**
     * A burst of first views is admitted to the realtime lane up to the bound (on-view.renders-per-slot, 2, times the
     * pool's one slot here); the rest wait in the table, first opened first, and go as places free.
     */
    @Test
    void aBurstOfFirstViewsIsAdmittedUpToTheBoundAndTheRestWait() throws Exception {
        UUID client = UUID.randomUUID();
        String file = BatchApi.customers(store, client, 6);
        String taskId = BatchApi.accepted(client, onView(client, "burst", file, 6));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        realtime.hold();
        try {
            try (var producer = OnViewRequests.producer()) {
                for (int row = 1; row <= 6; row++) {
                    OnViewRequests.send(producer, client, shareId(taskId, row), UUID.fromString(taskId), row, 1);
                }
            }
            Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("viewed"))
                    .isEqualTo(6));
            Patience.await().untilAsserted(() -> assertThat(realtimeJobs(taskId)).hasSize(2));
            assertThat(BatchApi.query("SELECT count(*) FROM batch_row WHERE task_id = CAST(? AS uuid)"
                    + " AND status = 'VIEWED'", taskId)).containsExactly("4");
            assertThat(realtimeJobs(taskId)).extracting(job -> job.path("job-id").asText().replace(taskId + "/", ""))
                    .as("the rows admitted are those on the lane").containsExactlyInAnyOrderElementsOf(BatchApi.query(
                            "SELECT row_no FROM batch_row WHERE task_id = CAST(? AS uuid) AND status = 'RENDERING'",
                            taskId));
        } finally {
            realtime.answerAll();
        }
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("rendered"))
                .isEqualTo(6));
        assertThat(realtimeJobs(taskId)).hasSize(6);
    }

    /** A render on view whose result never came back (a worker killed with the job) is rendered again. */
    @Test
    void aRenderOnViewLostWithItsWorkerIsRenderedAgain() throws Exception {
        UUID client = UUID.randomUUID();
        String taskId = BatchApi.accepted(client, onView(client, "lost", BatchApi.customers(store, client, 2), 2));
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        // As the claim and the admission leave it, with its job long gone.
        BatchApi.query("UPDATE batch_row SET status = 'RENDERING', attempts = 1,"
                + " submitted_at = now() - interval '1 hour' WHERE task_id = CAST(? AS uuid) AND row_no = 2"
                + " RETURNING row_no", taskId);
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("rendered"))
                .isEqualTo(1));
        assertThat(realtimeJobs(taskId)).extracting(job -> job.path("job-id").asText())
                .containsExactly(taskId + "/2");
    }

    /**
     * Every open of a link runs the admission, which reads the rows waiting for a place first opened first: by an
     * index, whatever the number of rows of every task (a scan of the table took 578 ms at 1.1 million rows, on the
     * way from an open to its first frame).
     */
    @Test
    void theAdmissionReadsTheRowsWaitingByAnIndex() throws Exception {
        try (Connection db = BatchApi.database(); Statement sql = db.createStatement()) {
            sql.execute("SET enable_seqscan = off");
            StringBuilder plan = new StringBuilder();
            try (ResultSet lines = sql.executeQuery("EXPLAIN SELECT task_id, row_no FROM batch_row"
                    + " WHERE status = 'VIEWED' ORDER BY submitted_at LIMIT 4 FOR UPDATE SKIP LOCKED")) {
                while (lines.next()) {
                    plan.append(lines.getString(1)).append('\n');
                }
            }
            assertThat(plan.toString()).contains("Index Scan using batch_row_viewed on batch_row");
        }
    }

    private static List<JsonNode> realtimeJobs(String taskId) {
        return realtime.jobsOf(taskId);
    }

    private static String shareId(String taskId, int row) {
        return OnViewRequests.shareId(events, taskId, row);
    }

    private static JsonNode page(String taskId, int row) {
        return OnViewRequests.page(events, taskId, row);
    }

    private static List<JsonNode> sharedVideos(String taskId) {
        return OnViewRequests.sharedVideos(events, taskId);
    }
}
