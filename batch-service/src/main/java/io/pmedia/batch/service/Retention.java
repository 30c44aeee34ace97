package io.pmedia.batch.service;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.repository.TaskStore;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.config.ShareConfig;
import io.pmedia.common.error.Outages;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The retention sweep of batch videos (docs/sharing.md): on schedule, every task whose videos' retention has ended
 * ({@code expires_at}) loses its rows' objects (videos, thumbnails, renditions, captions, streams, all under
 * {@code <task>/<row>/}); the task, its counts and its output file stay. Its rows' share links already answer 404 from
 * their {@code expires-at} in engagement-service. Tasks are claimed with {@code SKIP LOCKED}, so every replica sweeps.
 */
@ApplicationScoped
public class Retention {

    private static final Logger LOG = Logger.getLogger(Retention.class);
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(10);
    private static final int MAX_BATCHES = 50;
    /** A row's object, relative to its task's prefix: {@code <row number>/<file>}. */
    private static final Pattern ROW_OBJECT = Pattern.compile("[0-9]+/.+");

    private final TaskStore tasks;
    private final ObjectStore store;
    private final ShareConfig config;
    private final Vertx vertx;

    public Retention(TaskStore tasks, ObjectStore store, ShareConfig config, Vertx vertx) {
        this.tasks = tasks;
        this.store = store;
        this.config = config;
        this.vertx = vertx;
    }

    @Scheduled(every = "${pmedia.share.sweep-every:10m}", delayed = "${pmedia.share.sweep-delay:1m}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        return round(0).ifNoItem().after(ROUND_TIMEOUT).fail()
                .onFailure(Outages::isUnreachableDependency).recoverWithUni(failure -> {
                    LOG.warnf("batch retention sweep skipped (%s); it runs again on schedule", failure.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    /** Expires batches of tasks until one comes back short (or {@value #MAX_BATCHES} ran). */
    Uni<Void> round(int batches) {
        return BackgroundWork.call(vertx, this::expire).flatMap(expired -> expired >= config.sweepBatch()
                && batches + 1 < MAX_BATCHES ? round(batches + 1) : Uni.createFrom().voidItem());
    }

    /** One transaction: the due tasks claimed, their rows' objects deleted, the tasks marked; how many. */
    Uni<Integer> expire() {
        // programmatic: one transaction per batch of a sweep that runs as background work, not through a CDI call
        return Panache.withTransaction(() -> tasks.lockExpired(config.sweepBatch())
                .flatMap(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(this::expire)
                        .collect().asList().map(java.util.List::size)));
    }

    private Uni<Void> expire(BatchTask task) {
        String prefix = VendorNamespace.Kind.BATCH.prefix(task.clientId) + task.id + "/";
        return Blocking.offload(() -> store.deleteUnder(prefix,
                key -> ROW_OBJECT.matcher(key.substring(prefix.length())).matches()))
                .invoke(deleted -> {
                    task.videosDeletedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
                    LOG.infof("retention: task %s's videos ended at %s; %d objects deleted", task.id,
                            task.expiresAt, deleted);
                })
                .replaceWithVoid();
    }
}
