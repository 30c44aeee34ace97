package io.pmedia.batch.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.repository.RowStore;
import io.pmedia.batch.repository.RowStreams;
import io.pmedia.batch.repository.TaskStore;
import io.pmedia.common.client.ClientRegistryClient;
import io.pmedia.common.client.SharingSettings;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.config.ShareConfig;
import io.pmedia.events.BatchStatus;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * How tasks end, and their output files (docs/batch.md, "The output file"). A task whose rows have all been answered
 * gets its output file written, then turns {@code COMPLETED} (or {@code FAILED} when no row was rendered), so
 * {@code file-path} is there as soon as the status says so. A task ended early (cancel, campaign over) turns
 * {@code FAILED} at once; its rows not yet submitted are cancelled, the renders still running come back, and then its
 * output file is written with everything rendered so far. The file is written outside any transaction, from a
 * cursor, under a lease on the task: a replica that dies meanwhile leaves it to another.
 */
@ApplicationScoped
public class Outputs {

    private static final Logger LOG = Logger.getLogger(Outputs.class);

    private final Vertx vertx;
    private final TaskStore tasks;
    private final RowStore rows;
    private final ObjectStore store;
    private final BatchEvents events;
    private final BatchConfig config;
    private final ObjectMapper mapper;
    private final ClientRegistryClient registry;
    private final ShareConfig sharing;
    private final OutputPass pass;
    private final AtomicBoolean writing = new AtomicBoolean();

    public Outputs(Vertx vertx, TaskStore tasks, RowStore rows, RowStreams streams, ObjectStore store,
            BatchEvents events, BatchConfig config, ObjectMapper mapper, ClientRegistryClient registry,
            ShareConfig sharing) {
        this.mapper = mapper;
        this.registry = registry;
        this.sharing = sharing;
        this.vertx = vertx;
        this.tasks = tasks;
        this.rows = rows;
        this.store = store;
        this.events = events;
        this.config = config;
        this.pass = new OutputPass(streams, store, mapper, sharing.baseUrl());
    }

    /**
     * Ends a task early (it is locked, in the caller's transaction): rows not yet submitted are cancelled, and the task
     * ends {@code status} with {@code message} and its event. Its output file follows once its running renders are
     * back.
     */
    public Uni<BatchTask> end(BatchTask task, BatchStatus status, String message) {
        boolean hasRows = task.status() == BatchStatus.IN_PROGRESS;
        Uni<Integer> cancelled = hasRows
                ? rows.cancelPending(task.id, "not rendered: " + message)
                : Uni.createFrom().item(0);
        return cancelled.flatMap(ignored -> {
            task.outputDue = hasRows;
            task.status(status, message);
            return events.statusOf(task).replaceWith(task);
        });
    }

    /** Writes the outputs that are due, one task after another (or right after the run going on). */
    public void wake() {
        if (writing.compareAndSet(false, true)) {
            BackgroundWork.run(vertx, "writing batch outputs", () -> writeNext()
                    .eventually(() -> writing.set(false))
                    .invoke(wrote -> {
                        if (wrote) {
                            wake();
                        }
                    }));
        }
    }

    /** Writes the next output that is due; false when there is none. */
    Uni<Boolean> writeNext() {
        UUID lease = UUID.randomUUID();
        // programmatic: the lease, the blocking write and the close (or release) are separate commits
        return Panache.withTransaction(() -> tasks.leaseNextOutput(lease, config.lease()))
                .flatMap(task -> task == null
                        ? Uni.createFrom().item(false)
                        : Blocking.offload(() -> write(task))
                                .flatMap(written -> Panache.withTransaction(() -> close(task.id, lease, written)))
                                .onFailure().call(failure -> {
                                    LOG.warnf("output of task %s not written (retried): %s", task.id,
                                            failure.getMessage());
                                    return Panache.withTransaction(() -> tasks.release(task.id, lease));
                                })
                                .replaceWith(true));
    }

    /**
     * The task's output file, from a cursor over its rows through a temporary file into the store ({@link OutputPass}:
     * each row with a link gets it, and its page goes to engagement-service before the file names it); its key.
     */
    private Written write(BatchTask task) {
        String key = VendorNamespace.Kind.BATCH.prefix(task.clientId) + task.id + "/output.csv";
        Path file = null;
        try {
            JsonNode template = mapper.readTree(task.template);
            Instant expiresAt = expiry(task, template);
            file = Files.createTempFile("pmedia-batch-output-", ".csv");
            pass.write(task, template, expiresAt, file);
            store.put(key, file, "text/csv; charset=utf-8");
            return new Written(key, expiresAt);
        } catch (IOException e) {
            throw new UncheckedIOException("the output file cannot be written", e);
        } catch (SQLException e) {
            throw new IllegalStateException("the rows cannot be read: " + e.getMessage(), e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.warnf("cannot remove %s: %s", file, e.getMessage());
                }
            }
        }
    }

    /**
     * When the task's videos and links end: the template's retention, else the vendor's, else the platform's
     * (docs/sharing.md). Blocking: a registry that cannot answer costs the default, never the output.
     */
    private Instant expiry(BatchTask task, JsonNode template) {
        if (task.expiresAt != null) {
            return task.expiresAt;
        }
        Integer days = template.hasNonNull("retention-days") ? template.get("retention-days").asInt() : null;
        if (days == null) {
            try {
                days = registry.sharing(task.clientId).await().atMost(Duration.ofSeconds(5))
                        .map(SharingSettings::retentionDays).orElse(null);
            } catch (RuntimeException e) {
                LOG.warnf("sharing settings of %s unavailable (%s): the default retention applies", task.clientId,
                        e.getMessage());
            }
        }
        return Instant.now().plus(days != null ? days : sharing.defaultRetentionDays(), ChronoUnit.DAYS)
                .truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * The file is written: the task names it, and a task whose rows had all been answered ends now. Nothing happens
     * when another replica took the lease over meanwhile (it writes the file again).
     */
    /** An output file in the store, and the end of the retention its share links were given. */
    private record Written(String key, Instant expiresAt) {
    }

    private Uni<Void> close(UUID taskId, UUID lease, Written written) {
        return tasks.lockLeased(taskId, lease).flatMap(task -> {
            if (task == null) {
                return Uni.createFrom().voidItem();
            }
            task.outputKey = written.key();
            task.outputDue = false;
            if (task.expiresAt == null) {
                task.expiresAt = written.expiresAt();
            }
            if (task.status() == BatchStatus.IN_PROGRESS && task.onView()) {
                if (task.failedOnRead >= task.totalCount) {
                    task.status(BatchStatus.FAILED, "no row could be read");
                } else {
                    task.status(BatchStatus.COMPLETED, Progress.linked(task));
                }
            } else if (task.status() == BatchStatus.IN_PROGRESS) {
                if (task.succeeded == 0) {
                    task.status(BatchStatus.FAILED, "no row could be rendered");
                } else {
                    task.status(BatchStatus.COMPLETED, Progress.finished(task, Instant.now()));
                }
            } else {
                task.updatedAt = Instant.now();
            }
            return tasks.release(taskId, lease).chain(() -> events.statusOf(task));
        });
    }
}
