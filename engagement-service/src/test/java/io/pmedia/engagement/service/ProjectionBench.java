package io.pmedia.engagement.service;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.pmedia.engagement.TestInfrastructure;
import io.pmedia.events.RenderJob;
import io.pmedia.events.SharedVideo;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;

/**
 * The projection benchmark of issue 37 (not a test; surefire runs it only when named): the page events of an on-view
 * task of N rows (default 100,000; {@code -Dpmedia.bench.rows}), 200 rows an event as batch-service sends them, applied
 * one after another by {@link Projection} as the consumer applies them (each in its transaction), on the module's
 * test database. Prints rows per second, every 20,000 rows and overall. {@code bench/engagement/projection.sh [rows]}
 * runs it.
 */
@QuarkusTest
class ProjectionBench extends TestInfrastructure {

    private static final Logger LOG = Logger.getLogger(ProjectionBench.class);
    private static final int ROWS_PER_EVENT = 200;

    @Inject
    Projection projection;

    @Test
    void projectATasksPages() throws Throwable {
        int rows = Integer.getInteger("pmedia.bench.rows", 100_000);
        UUID client = UUID.randomUUID();
        UUID task = UUID.randomUUID();
        UUID template = UUID.randomUUID();
        Instant created = Instant.now();
        Instant expires = created.plus(90, ChronoUnit.DAYS);
        long start = System.nanoTime();
        long lap = start;
        for (int first = 1; first <= rows; first += ROWS_PER_EVENT) {
            List<SharedVideo.Video> pages = IntStream.range(first, Math.min(rows + 1, first + ROWS_PER_EVENT))
                    .mapToObj(row -> new SharedVideo.Video(
                            String.format(Locale.ROOT, "%s%08d", task.toString().replace("-", "").substring(0, 16),
                                    row),
                            SharedVideo.State.ACTIVE, row, String.format(Locale.ROOT, "customer-%08d", row),
                            "Product tour", null, null, null, null, null, 1280, 720, null, created, expires,
                            SharedVideo.Render.ON_VIEW,
                            "batch/" + client + "/" + task + "/" + row + "/" + RenderJob.STREAM_PLAYLIST))
                    .toList();
            SharedVideo event = new SharedVideo(client, SharedVideo.Source.batch, null, task, "bench", template, 1,
                    "product-tour", pages);
            VertxContextSupport.subscribeAndAwait(() -> projection.apply(event));
            int done = first + pages.size() - 1;
            if (done % 20_000 == 0) {
                long now = System.nanoTime();
                LOG.infof("projection: %d rows, the last 20,000 at %.0f rows/s", done, 20_000 / ((now - lap) / 1e9));
                lap = now;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        LOG.infof("projection: %d rows in %d events of %d: %.1f s, %.0f rows/s", rows,
                (rows + ROWS_PER_EVENT - 1) / ROWS_PER_EVENT, ROWS_PER_EVENT, seconds, rows / seconds);
    }
}
