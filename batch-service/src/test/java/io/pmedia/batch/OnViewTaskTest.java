package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

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
 * Render on first view (docs/batch.md, issue 37), through the real broker, database and store: a task of
 * {@code "render": "on-view"} hands out every row's share link as soon as its file is read and renders nothing.
 */
@QuarkusTest
class OnViewTaskTest {

    private static final int ROWS = 500;
    private static RenderWorkerDouble worker;
    private static KafkaEvents events;

    @Inject
    ObjectStore store;

    @BeforeAll
    static void start() {
        worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null);
        events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), "pmedia.batch.status");
    }

    @AfterAll
    static void stop() throws Exception {
        worker.close();
        events.close();
    }

    static String onView(UUID client, String campaign, String file, int rows) {
        return BatchApi.body(client, campaign, TemplateEndpoint.GREETING, file, rows)
                .replace("\"priority\"", "\"render\": \"on-view\", \"priority\"");
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

    private static List<JsonNode> sharedVideos(String taskId) {
        return events.withKey(taskId).stream()
                .filter(event -> "io.pmedia.video.shared".equals(event.envelope().path("type").asText()))
                .flatMap(event -> java.util.stream.StreamSupport.stream(event.data().path("videos").spliterator(),
                        false))
                .toList();
    }
}
