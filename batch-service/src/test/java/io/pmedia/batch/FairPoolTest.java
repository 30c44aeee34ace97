package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.batch.messaging.RenderPool;
import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The queue that decides is batch-service's (docs/batch.md, "The bound"; issue 37): with a pool of one render slot
 * busy with vendor A's 60-row task, vendor B's one-row task starts within a few renders of its rows being stored, and
 * completes before A's task is a quarter done. The pool is {@link RenderPoolDouble}, a worker of the real workers'
 * consumer group that renders one job at a time as media-service's lanes take them, and batch-service counts it from
 * that group ({@link RenderPool}); the broker, the database and the store are real. Which rows were answered when is
 * read back from the database.
 */
@QuarkusTest
class FairPoolTest {

    private static final int LARGE = 60;
    private static RenderPoolDouble pool;

    @Inject
    ObjectStore store;

    @Inject
    RenderPool renderPool;

    @BeforeAll
    static void startPool() {
        pool = new RenderPoolDouble(KafkaTestResource.bootstrapServers(), Duration.ofMillis(250));
    }

    @AfterAll
    static void stopPool() throws Exception {
        pool.close();
    }

    @Test
    void anotherVendorsOneRowTaskCompletesBeforeALargeTaskIsAQuarterDone() throws Exception {
        UUID vendorA = UUID.randomUUID();
        UUID vendorB = UUID.randomUUID();
        // the pool as the workers' group shows it: one worker of one slot
        Patience.await().until(() -> renderPool.workers() == 1);
        String large = BatchApi.accepted(vendorA, BatchApi.body(vendorA, "c", TemplateEndpoint.GREETING,
                BatchApi.customers(store, vendorA, LARGE), LARGE, 0, 60));
        // Given the pool busy with A's rows (and whatever A has queued by now),
        Patience.await().until(() -> BatchApi.status(vendorA, large).integer("processed") >= 3);
        // when B asks for one row,
        String small = BatchApi.accepted(vendorB, BatchApi.body(vendorB, "c", TemplateEndpoint.GREETING,
                BatchApi.customers(store, vendorB, 1), 1, 0, 60));
        BatchApi.awaitStatus(vendorB, small, "COMPLETED");

        // then B's row is rendered within a few renders of its task starting, and its task completes before A's
        // is a quarter done.
        int aheadOfB = Integer.parseInt(BatchApi.first("""
                SELECT count(*) FROM batch_row
                 WHERE task_id = ?::uuid
                   AND answered_at > (SELECT started_at FROM batch_task WHERE id = ?::uuid)
                   AND answered_at < (SELECT answered_at FROM batch_row WHERE task_id = ?::uuid)""",
                large, small, small));
        int doneBeforeB = Integer.parseInt(BatchApi.first("""
                SELECT count(*) FROM batch_row
                 WHERE task_id = ?::uuid
                   AND answered_at <= (SELECT updated_at FROM batch_task WHERE id = ?::uuid)""", large, small));
        assertThat(aheadOfB).as("rows of A rendered between B's start and B's row").isLessThanOrEqualTo(6);
        assertThat(doneBeforeB).as("rows of A answered before B completed").isLessThan(LARGE / 4);
        BatchApi.awaitStatus(vendorA, large, "COMPLETED");
    }

    @Test
    void thePoolIsTheWorkersOfTheGroupOnTheBatchLane() throws Exception {
        Patience.await().until(() -> renderPool.workers() == 1);
        assertThat(renderPool.slots()).isEqualTo(1);
        try (RenderPoolDouble second = new RenderPoolDouble(KafkaTestResource.bootstrapServers(),
                Duration.ofMillis(250))) {
            Patience.await().until(() -> renderPool.workers() == 2);
            assertThat(renderPool.slots()).isEqualTo(2);
        }
        Patience.await().until(() -> renderPool.workers() == 1);
    }
}
