package io.pmedia.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.pmedia.storage.ObjectStore;
import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.Patience;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A large input file is read as a stream: its rows enter the database while the heap the service keeps alive stays
 * far below the size of the file. The live heap is measured from the process itself: a full collection, then the heap
 * in use, once a second while the file is read (the test JVM runs the serial collector, so that is the live set).
 */
@QuarkusTest
class StreamingIngestionTest {

    /**
     * About 27 MB of CSV: several times what a whole-file read would keep alive beyond the bound, small enough for the
     * suite on two cores (bench/batch/ingest.sh reads 1,000,000 rows, 194 MB, for docs/performance.md).
     */
    private static final int ROWS = 250_000;
    /** What the service may keep alive beyond what it held before, while it reads the file. */
    private static final long BOUND = 20L * 1024 * 1024;

    private static final Logger LOG = Logger.getLogger(StreamingIngestionTest.class);

    @Inject
    ObjectStore store;

    @Test
    void aLargeFileIsStoredRowByRowWithBoundedMemory() throws Exception {
        UUID client = UUID.randomUUID();
        Path csv = Files.createTempFile("batch-large-", ".csv");
        try (RenderWorkerDouble worker = new RenderWorkerDouble(KafkaTestResource.bootstrapServers(), job -> null)) {
            worker.hold();
            try (BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
                out.write("user-id,name,offer,image-url\n");
                for (int i = 1; i <= ROWS; i++) {
                    out.write("u-%07d,Customer %07d with a longer name,Offer %07d: 20%% off your next order,"
                            .formatted(i, i, i) + "http://127.0.0.1/a.png\n");
                }
            }
            long size = Files.size(csv);
            assertThat(size).as("the file is larger than the bound").isGreaterThan(BOUND);
            String key = "inputs/" + client + "/" + UUID.randomUUID() + "/customers.csv";
            store.put(key, csv, "text/csv");

            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            long before = liveHeap(memory);
            AtomicLong peak = new AtomicLong(before);
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            String taskId = BatchApi.accepted(client, BatchApi.body(client, "c", TemplateEndpoint.GREETING,
                    store.s3Path(key), ROWS));
            // Every 2 s: a full collection stops the whole test JVM, the in-JVM broker included.
            sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(liveHeap(memory), Math::max), 0, 2,
                    TimeUnit.SECONDS);
            try {
                BatchApi.Answer running = BatchApi.awaitStatus(client, taskId, "IN PROGRESS");
                assertThat(running.integer("total-count")).isEqualTo(ROWS);
            } finally {
                sampler.shutdownNow();
                assertThat(sampler.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(BatchApi.query("SELECT count(*) FROM batch_row WHERE task_id = ?::uuid", taskId))
                    .containsExactly(String.valueOf(ROWS));
            LOG.infof("live heap grew by %d MB (bound %d MB) while a %d MB file of %d rows was read",
                    (peak.get() - before) >> 20, BOUND >> 20, size >> 20, ROWS);
            assertThat(peak.get() - before).as("live heap grew by %d MB while a %d MB file was read",
                    (peak.get() - before) >> 20, size >> 20).isLessThan(BOUND);

            // Cancelled: its rows in flight come back, and its output file (250,000 lines) is written.
            BatchApi.cancel(client, taskId).is(200);
            worker.answerAll();
            Patience.await().untilAsserted(() -> assertThat(BatchApi.status(client, taskId)
                    .string("file-path")).isNotNull());
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    /** The heap in use right after a full collection: what is alive. */
    private static long liveHeap(MemoryMXBean memory) {
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
