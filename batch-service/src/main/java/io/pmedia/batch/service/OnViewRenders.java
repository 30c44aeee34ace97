package io.pmedia.batch.service;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.batch.BatchRow;
import io.pmedia.batch.BatchTask;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.repository.RowStore;
import io.pmedia.batch.repository.TaskStore;
import io.pmedia.common.config.ShareConfig;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderLane;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Rows of tasks rendered on first view (docs/batch.md, "Render on first view"): the first open of a row's link claims
 * the row in PostgreSQL, once, whatever the number of opens and replicas ({@code ON-VIEW} to {@code VIEWED}); rows
 * opened are admitted to the realtime lane up to {@code on-view.renders-per-slot} per render slot of the pool, first
 * opened first ({@code RENDERING}), the rest wait in the table; a result counts in the task ({@code rendered},
 * {@code render-failed}) and sends the row's page to engagement-service with its video, or marked failed (the page
 * offers a retry, which claims the row again while it has attempts left).
 */
@ApplicationScoped
public class OnViewRenders {

    private static final Logger LOG = Logger.getLogger(OnViewRenders.class);

    private final RowStore rows;
    private final TaskStore tasks;
    private final EventPublisher publisher;
    private final ObjectMapper mapper;
    private final RenderJobs jobs;
    private final BatchConfig config;
    private final ShareConfig sharing;
    private final RenderSlots pool;
    private final MeterRegistry registry;

    public OnViewRenders(RowStore rows, TaskStore tasks, EventPublisher publisher, ObjectMapper mapper,
            BatchConfig config, ShareConfig sharing, RenderSlots pool, MeterRegistry registry) {
        this.rows = rows;
        this.tasks = tasks;
        this.publisher = publisher;
        this.mapper = mapper;
        this.jobs = new RenderJobs(mapper, config.renderTimeLimit());
        this.config = config;
        this.sharing = sharing;
        this.pool = pool;
        this.registry = registry;
    }

    /**
     * A link was opened without a video: its row is claimed (true) and admitted to the realtime lane if there is room,
     * or nothing happens (false: claimed before, rendered, not the client's row, not rendered on view).
     */
    @WithTransaction
    public Uni<Boolean> viewed(RenderOnView request) {
        if (request.taskId() == null || request.row() == null || request.clientId() == null) {
            return Uni.createFrom().item(false);
        }
        return rows.claimView(request.taskId(), request.row(), request.clientId(),
                request.attempt() > 1, config.maxAttempts())
                .flatMap(attempts -> {
                    if (attempts == null) {
                        return Uni.createFrom().item(false);
                    }
                    registry.counter("pmedia.batch.on-view.claims", "attempt", attempts == 1 ? "first" : "retry")
                            .increment();
                    Uni<Integer> counted = attempts == 1
                            ? tasks.countViewed(request.taskId())
                            : Uni.createFrom().item(0);
                    return counted.chain(this::admitLocked).replaceWith(true);
                });
    }

    /** Admits rows opened to the realtime lane while there is room; in its own transaction. */
    @WithTransaction
    public Uni<Integer> admit() {
        return admitLocked();
    }

    /** The admission, in the caller's transaction: one replica at a time (the others' rows wait for the next). */
    private Uni<Integer> admitLocked() {
        return tasks.tryAdmitLock().flatMap(locked -> !locked
                ? Uni.createFrom().item(0)
                : rows.rendering().flatMap(rendering -> {
                    int free = bound() - rendering.intValue();
                    return free <= 0 ? Uni.createFrom().item(0) : rows.lockViewed(free).flatMap(this::submit);
                }));
    }

    /** On-view renders on the realtime lane at once: {@code renders-per-slot} per render slot of the pool. */
    int bound() {
        return Math.max(1, config.onView().rendersPerSlot() * pool.slots());
    }

    private Uni<Integer> submit(List<BatchRow> admitted) {
        if (admitted.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Multi.createFrom().iterable(admitted)
                .onItem().transformToUniAndConcatenate(row -> Panache.getSession()
                        .flatMap(session -> session.find(BatchTask.class, row.taskId()))
                        .flatMap(task -> {
                            try {
                                RenderJob job = jobs.of(task, mapper.readTree(task.template), row,
                                        RenderLane.REALTIME);
                                return rows.admitted(row.taskId(), row.rowNo()).chain(() -> publisher.publish(job));
                            } catch (IOException e) {
                                return Uni.createFrom().failure(new IllegalStateException("task " + task.id
                                        + " is unreadable", e));
                            }
                        }))
                .collect().asList().map(List::size);
    }

    /**
     * An on-view render came back (applied to its row in the caller's transaction): counted in its task, and the
     * row's page sent with its video, or marked failed.
     */
    Uni<Void> answered(UUID taskId, int rowNo, boolean success) {
        registry.counter("pmedia.batch.on-view.renders", "status", success ? "success" : "failure").increment();
        return tasks.countRendered(taskId, success)
                .chain(() -> Panache.getSession().flatMap(session -> session.find(BatchTask.class, taskId)))
                .flatMap(task -> rows.row(taskId, rowNo).flatMap(row -> {
                    SharedVideo page;
                    try {
                        RowShares shares = new RowShares(task, mapper.readTree(task.template), mapper,
                                sharing.baseUrl(), task.expiresAt);
                        shares.add(row);
                        page = shares.take(true);
                    } catch (IOException e) {
                        LOG.errorf("the page of %s/%d cannot be sent: %s", taskId, rowNo, e.getMessage());
                        return Uni.createFrom().voidItem();
                    }
                    return publisher.publish(page);
                }));
    }
}
