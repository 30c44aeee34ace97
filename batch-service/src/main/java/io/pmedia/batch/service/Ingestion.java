package io.pmedia.batch.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.repository.RowStreams;
import io.pmedia.batch.repository.TaskStore;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Reads the input file of a pending task into its rows (docs/batch.md, "The input file"), as a stream: the object
 * store's response is parsed record by record and the rows go into PostgreSQL with COPY as they come, so a million rows
 * need no more memory than ten. All or nothing: the rows, the task's move to {@code IN PROGRESS} and its event commit
 * in one transaction; a file that cannot be used, or has fewer data rows than {@code row-count}, ends the task
 * {@code FAILED} before anything is rendered. One file at a time per replica, under a lease on the task.
 */
@ApplicationScoped
public class Ingestion {

    private static final Logger LOG = Logger.getLogger(Ingestion.class);

    private final Vertx vertx;
    private final TaskStore tasks;
    private final ObjectStore store;
    private final ObjectMapper mapper;
    private final FileIngest ingest;
    private final BatchConfig config;
    private final AtomicBoolean reading = new AtomicBoolean();

    public Ingestion(Vertx vertx, TaskStore tasks, RowStreams streams, ObjectStore store, BatchEvents events,
            ObjectMapper mapper, BatchConfig config) {
        this.vertx = vertx;
        this.tasks = tasks;
        this.store = store;
        this.mapper = mapper;
        // Stored rows leave out empty lists and absent values: a million rows, each a little smaller.
        this.ingest = new FileIngest(streams, mapper.copy().setSerializationInclusion(JsonInclude.Include.NON_EMPTY)
                .writer(), new InputFile.Limits(config.maxFileBytes(), config.maxColumns(), config.maxCellChars()),
                task -> events.event(task, Instant.now()));
        this.config = config;
    }

    /** Reads the pending files, one after another (or right after the one being read). */
    public void wake() {
        if (reading.compareAndSet(false, true)) {
            BackgroundWork.run(vertx, "reading batch input files", () -> readNext()
                    .eventually(() -> reading.set(false))
                    .invoke(read -> {
                        if (read) {
                            wake();
                        }
                    }));
        }
    }

    /** Reads the next pending file; false when there is none. */
    Uni<Boolean> readNext() {
        UUID lease = UUID.randomUUID();
        // programmatic: the lease, the blocking read and the release on failure are three separate commits
        return Panache.withTransaction(() -> tasks.leaseNextToRead(lease, config.lease()))
                .flatMap(task -> task == null
                        ? Uni.createFrom().item(false)
                        : Blocking.offload(() -> read(task, lease))
                                .onFailure().call(failure -> {
                                    // The store or the database was away: the file is read again on a later round.
                                    LOG.warnf("input file of task %s not read (retried): %s", task.id,
                                            failure.getMessage());
                                    return Panache.withTransaction(() -> tasks.release(task.id, lease));
                                })
                                .replaceWith(true));
    }

    /** Reads the task's file into rows and starts the task, or fails it; blocking. */
    private Void read(BatchTask task, UUID lease) {
        // The path was checked at acceptance; checked again here, so a stored path can never leave the namespace.
        String key = store.ownedKey(task.clientId, task.filePath).orElse(null);
        try (InputStream in = key == null ? null : store.open(key).orElse(null)) {
            if (in == null) {
                ingest.fail(task, lease, "input file: '" + task.filePath + "' no longer exists");
            } else {
                ingest.ingest(task, lease, mapper.readTree(task.template), in);
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("'" + task.filePath + "' cannot be read", e);
        } catch (SQLException e) {
            throw new IllegalStateException("the rows cannot be stored: " + e.getMessage(), e);
        }
    }
}
