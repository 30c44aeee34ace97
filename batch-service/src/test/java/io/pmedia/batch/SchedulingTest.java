package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Who gets the render workers and when (docs/batch.md, "Priority, fairness and deadlines"), and what a task says as it
 * moves, with a window of 4 rows in flight and a worker double that answers only when the test lets it: the order of
 * submission is the scheduler's decision, read back from the database. Real broker, database and store.
 */
@QuarkusTest
@TestProfile(SchedulingTest.SmallWindow.class)
class SchedulingTest {

    public static class SmallWindow implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // A pool of four slots taking one row each, whatever the workers' group and the answers say.
            return Map.of("pmedia.batch.lane.slots", "4", "pmedia.batch.lane.rows-per-slot", "1",
                    "pmedia.batch.lane.ahead", "0s", "pmedia.batch.lane.busy-over", "24h",
                    "pmedia.batch.progress-every", "0s");
        }
    }

    private static final Duration LONG = Duration.ofSeconds(60);
    private static RenderWorkerDouble worker;
    private static KafkaEvents events;

    @Inject
    ObjectStore store;

    @BeforeAll
    static void startWorker() {
        worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null);
        events = KafkaEvents.of(KafkaTestResource.bootstrapServers(), "pmedia.batch.status");
    }

    @AfterAll
    static void stopWorker() throws Exception {
        worker.close();
        events.close();
    }

    @BeforeEach
    void holdRenders() {
        worker.hold();
    }

    @AfterEach
    void answerEverything() {
        worker.answerAll();
    }

    @Test
    void anotherVendorsSmallTaskIsNotStarvedByALargeOneOfTheSamePriority() throws Exception {
        UUID big = UUID.randomUUID();
        UUID small = UUID.randomUUID();
        // The large task comes first and has the earlier deadline: it fills the window before the small one exists.
        String large = BatchApi.accepted(big, BatchApi.body(big, "c", TemplateEndpoint.GREETING,
                BatchApi.customers(store, big, 40), 40, 1, 30));
        Patience.await().until(() -> worker.heldCount() == 4);
        String little = BatchApi.accepted(small, BatchApi.body(small, "c", TemplateEndpoint.GREETING,
                BatchApi.customers(store, small, 4), 4, 1, 60));
        BatchApi.awaitStatus(small, little, "IN PROGRESS");

        worker.answerAll();
        BatchApi.awaitStatus(small, little, "COMPLETED");
        BatchApi.awaitStatus(big, large, "COMPLETED");
        List<String> order = BatchApi.query("SELECT task_id::text FROM batch_row WHERE task_id IN (?::uuid, ?::uuid)"
                + " ORDER BY submit_seq", large, little);
        // Each place that frees up goes to the vendor with fewer rows in flight: the small task's 4 rows go out
        // among the next places (within the next windows' worth, whatever the rounds' timing on a busy machine), not
        // after the other 36 rows.
        assertThat(order.lastIndexOf(little)).as(order.toString()).isLessThan(4 + 3 * 4);
        assertThat(order.subList(0, 4)).containsOnly(large);
    }

    @Test
    void aVendorsTaskWithTheEarlierDeadlineIsRenderedFirst() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "autumn", "SCHEDULED");
        String relaxed = BatchApi.accepted(client, BatchApi.body(client, "autumn", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 6), 6, 1, 240));
        String urgent = BatchApi.accepted(client, BatchApi.body(client, "autumn", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 6), 6, 1, 20));
        BatchApi.campaign(client, "autumn", "ACTIVE");
        worker.answerAll();
        BatchApi.awaitStatus(client, urgent, "COMPLETED");
        BatchApi.awaitStatus(client, relaxed, "COMPLETED");
        List<String> order = BatchApi.query("SELECT task_id::text FROM batch_row WHERE task_id IN (?::uuid, ?::uuid)"
                + " ORDER BY submit_seq", relaxed, urgent);
        // Accepted later, due sooner: every row of it goes before any row of the other.
        assertThat(order).containsExactlyElementsOf(concat(Collections.nCopies(6, urgent),
                Collections.nCopies(6, relaxed)));
    }

    @Test
    void theStatusAndItsEventsCarryProcessedAndTheProjectionAsTheTaskMoves() throws Exception {
        UUID client = UUID.randomUUID();
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 6), 6, 1, 30));
        Patience.await().until(() -> worker.heldCount() == 4);
        BatchApi.Answer before = BatchApi.status(client, taskId);
        assertThat(before.integer("processed")).isZero();
        assertThat(before.string("message")).startsWith("0 of 6 rows, due ");

        worker.release(job -> RenderWorkerDouble.task(job).equals(taskId) && RenderWorkerDouble.row(job) <= 2);
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).integer("processed"))
                .isEqualTo(2));
        assertThat(BatchApi.status(client, taskId).string("message"))
                // a time of another day than now carries its date (a task due 30 min from 23:40 is due tomorrow)
                .matches("2 of 6 rows, projected to finish (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\dZ,"
                        + " due (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\dZ");
        Patience.await().untilAsserted(() -> assertThat(events.withKey(taskId))
                .anySatisfy(event -> {
                    assertThat(event.data().path("status").asText()).isEqualTo("IN PROGRESS");
                    assertThat(event.data().path("processed").asInt()).isEqualTo(2);
                    assertThat(event.data().path("message").asText()).startsWith("2 of 6 rows, projected to finish");
                    assertThat(event.data().path("projected-finish").asText()).isNotEmpty();
                    assertThat(event.data().path("due-at").asText()).isNotEmpty();
                }));

        worker.answerAll();
        BatchApi.awaitStatus(client, taskId, "COMPLETED");
        // The topic also carries the rows' share links (io.pmedia.video.shared), keyed by the task too.
        Patience.await().untilAsserted(() -> assertThat(events.withKey(taskId).stream()
                .filter(event -> "io.pmedia.batch.status.changed".equals(event.envelope().path("type").asText()))
                .map(event -> event.data().path("processed").asInt()).toList())
                .isSorted().contains(0, 2, 6));
    }

    @Test
    void aCancelledTaskKeepsEveryRowRenderedSoFarInItsOutputFile() throws Exception {
        UUID client = UUID.randomUUID();
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 10), 10, 1, 30));
        Patience.await().until(() -> worker.heldCount() == 4);
        // Rows 1 and 2 come back; rows 5 and 6 take their places; then the vendor cancels.
        worker.release(job -> RenderWorkerDouble.task(job).equals(taskId) && RenderWorkerDouble.row(job) <= 2);
        Patience.await().until(() -> worker.heldCount() == 4
                && BatchApi.status(client, taskId).integer("processed") == 2);
        BatchApi.cancel(client, taskId).is(200);
        BatchApi.Answer cancelled = BatchApi.status(client, taskId);
        assertThat(cancelled.string("status")).isEqualTo("FAILED");
        assertThat(cancelled.string("message")).isEqualTo("task cancelled by the client");

        // The renders that were running come back, and count: then the output file is written.
        worker.answerAll();
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).string("file-path"))
                .isNotNull());
        assertThat(BatchApi.status(client, taskId).integer("processed")).isEqualTo(6);
        List<String> lines = BatchApi.output(store, client, taskId).lines().toList();
        assertThat(lines).hasSize(11);
        assertThat(lines.subList(1, 7)).allMatch(line -> line.contains(",SUCCESS,s3://"));
        assertThat(lines.subList(7, 11)).allMatch(line -> line.endsWith(",CANCELLED,,,,,not rendered: task"
                + " cancelled by the client"));
        Patience.await().untilAsserted(() -> assertThat(events.withKey(taskId)).last()
                .satisfies(event -> assertThat(event.data().path("file-path").asText()).endsWith("/output.csv")));
    }

    @Test
    void aTaskWhoseCampaignEndsKeepsEveryRowRenderedSoFar() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "short", "ACTIVE");
        String taskId = BatchApi.accepted(client, BatchApi.body(client, "short", TemplateEndpoint.GREETING,
                BatchApi.customers(store, client, 12), 12, 1, 30));
        Patience.await().until(() -> worker.heldCount() == 4);
        worker.release(job -> RenderWorkerDouble.task(job).equals(taskId) && RenderWorkerDouble.row(job) <= 4);
        Patience.await().until(() -> worker.heldCount() == 4
                && BatchApi.status(client, taskId).integer("processed") == 4);
        BatchApi.campaign(client, "short", "ENDED");
        assertThat(BatchApi.awaitStatus(client, taskId, "FAILED").string("message"))
                .isEqualTo("campaign ended before the task completed");
        worker.answerAll();
        Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId).string("file-path"))
                .isNotNull());
        List<String> lines = BatchApi.output(store, client, taskId).lines().toList();
        assertThat(lines.subList(1, 9)).allMatch(line -> line.contains(",SUCCESS,s3://"));
        assertThat(lines.subList(9, 13)).allMatch(line -> line.endsWith(",CANCELLED,,,,,not rendered: campaign ended"
                + " before the task completed"));
    }

    @Test
    void aTaskOfACampaignThatHasEndedIsRefusedWhenCreated() throws Exception {
        UUID client = UUID.randomUUID();
        BatchApi.campaignIs(client, "closed", "ENDED");
        String file = BatchApi.customers(store, client, 2);
        BatchApi.create(client, BatchApi.body(client, "closed", TemplateEndpoint.GREETING, file, 2, 1, 30))
                .isError(409, "CONFLICT", "campaign 'closed' has ended");
        assertThat(BatchApi.query("SELECT count(*)::text FROM batch_task WHERE client_id = ?::uuid",
                client.toString())).containsExactly("0");
        // the same vendor's other campaign, and the same name of another vendor, are not touched (both scheduled,
        // so that their rows wait and take none of the four places the next tests count)
        UUID other = UUID.randomUUID();
        BatchApi.campaignIs(client, "open", "SCHEDULED");
        BatchApi.campaignIs(other, "closed", "SCHEDULED");
        String open = BatchApi.accepted(client, BatchApi.body(client, "open", TemplateEndpoint.GREETING, file, 2, 1,
                30));
        String same = BatchApi.accepted(other, BatchApi.body(other, "closed", TemplateEndpoint.GREETING,
                BatchApi.customers(store, other, 2), 2, 1, 30));
        BatchApi.cancel(client, open).is(200);
        BatchApi.cancel(other, same).is(200);
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }
}
