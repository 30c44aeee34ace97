package io.pmedia.batch.service;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.batch.BatchRow;
import io.pmedia.batch.BatchTask;
import io.pmedia.batch.RowStatus;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.repository.CampaignWindowStore;
import io.pmedia.batch.repository.RowStore;
import io.pmedia.batch.repository.TaskStore;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.BatchStatus;
import io.pmedia.events.RenderJob;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Moves tasks along, on every replica, in rounds (every {@code dispatch-every}, and at once on a new task or result):
 * stops tasks whose campaign ended, gives lost renders another attempt, submits the next rows to the batch lane,
 * sends progress events, and wakes the readers of input files ({@link Ingestion}) and the writers of output files
 * ({@link Outputs}), which run beside the rounds. Each step is one transaction that claims what it changes (rows with
 * {@code SKIP LOCKED}, submission under an advisory lock), so any number of replicas dispatch together.
 */
@ApplicationScoped
public class Dispatcher {

    /** Tasks ended or reported per step and round. */
    private static final int BATCH = 50;

    private final Vertx vertx;
    private final TaskStore tasks;
    private final RowStore rows;
    private final Outputs outputs;
    private final Ingestion ingestion;
    private final EventPublisher publisher;
    private final BatchEvents events;
    private final ObjectMapper mapper;
    private final RenderJobs jobs;
    private final BatchConfig config;
    private final MeterRegistry registry;
    private final RenderSlots pool;
    private final OnViewRenders onView;
    private final CampaignWindowStore windows;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean started;
    private long timer = -1;

    public Dispatcher(Vertx vertx, TaskStore tasks, RowStore rows, Outputs outputs, Ingestion ingestion,
            EventPublisher publisher, BatchEvents events, ObjectMapper mapper, BatchConfig config,
            MeterRegistry registry, RenderSlots pool, OnViewRenders onView, CampaignWindowStore windows) {
        this.onView = onView;
        this.windows = windows;
        this.registry = registry;
        this.pool = pool;
        this.vertx = vertx;
        this.tasks = tasks;
        this.rows = rows;
        this.outputs = outputs;
        this.ingestion = ingestion;
        this.publisher = publisher;
        this.events = events;
        this.mapper = mapper;
        this.jobs = new RenderJobs(mapper, config.renderTimeLimit());
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        if (config.dispatcherEnabled()) {
            started = true;
            timer = vertx.setPeriodic(config.dispatchEvery().toMillis(), id -> wake());
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        started = false;
        vertx.cancelTimer(timer);
    }

    /** Runs a round now (or right after the one running). */
    public void wake() {
        if (!started) {
            return;
        }
        if (!running.compareAndSet(false, true)) {
            again.set(true);
            return;
        }
        again.set(false);
        BackgroundWork.run(vertx, "dispatching batch tasks", () -> round().eventually(() -> {
            running.set(false);
            if (again.getAndSet(false)) {
                wake();
            }
        }));
    }

    /** One round of every step. Safe on any number of replicas at once. */
    public Uni<Void> round() {
        return stopEndedCampaigns()
                .chain(this::resubmitLost)
                .chain(this::submitNext)
                .chain(onView::admit)
                .chain(this::reportProgress)
                .invoke(() -> {
                    ingestion.wake();
                    outputs.wake();
                })
                .replaceWithVoid();
    }

    // --- campaign window ------------------------------------------------------------------------------------------

    /**
     * A campaign's latest status and render from {@code pmedia.campaign.status}; an older event never overwrites a
     * newer one. Its pending tasks that do not say render follow the render. The caller wakes a round after the commit.
     */
    @WithTransaction
    public Uni<Integer> campaignStatus(UUID clientId, String campaignId, String status, String render, Instant time) {
        return windows.record(clientId, campaignId, status, render, time)
                .call(recorded -> tasks.followCampaign(clientId, campaignId));
    }

    Uni<Integer> stopEndedCampaigns() {
        // programmatic: each step of a round (a background run, not a CDI call) commits on its own
        return Panache.withTransaction(() -> tasks.lockCampaignEnded(BATCH)
                .flatMap(ended -> Multi.createFrom().iterable(ended)
                        .onItem().transformToUniAndConcatenate(
                                task -> outputs.end(task, BatchStatus.FAILED,
                                        "campaign ended before the task completed"))
                        .collect().asList().map(List::size)));
    }

    // --- lost renders ---------------------------------------------------------------------------------------------

    /**
     * Rows submitted long ago with no result (the job or its result was lost, or a worker died): submitted again, or
     * failed after {@code max-attempts} (or at once when their task has ended meanwhile). Renders on view lost the same
     * way wait for admission again.
     */
    Uni<Integer> resubmitLost() {
        Instant before = Instant.now().minus(config.resubmitAfter());
        // A viewer waits for a render on view: its job is given up after twice the render's time limit, not minutes.
        Instant renderedBefore = Instant.now().minus(config.renderTimeLimit().multipliedBy(2));
        // programmatic: each step of a round (a background run, not a CDI call) commits on its own
        return Panache.withTransaction(() -> rows.requeueLostRenders(renderedBefore).chain(() -> rows.resubmitLost(
                before, config.maxAttempts()))
                .flatMap(again -> rows.failLost(before, config.maxAttempts(),
                        "render did not complete after " + config.maxAttempts() + " attempts",
                        "render did not complete before the task ended").map(failed -> again + failed)));
    }

    // --- submitting rows ------------------------------------------------------------------------------------------

    /**
     * Fills the window up to the bound ({@link LaneBound}: a few rows per render slot of the pool, {@link RenderSlots}),
     * shared out by {@link SubmissionPlan}, each row's job on the batch lane through the outbox with the row's change.
     * Runs on every answer (a place freed is filled at once), on every new task, and every {@code dispatch-every}.
     */
    Uni<Integer> submitNext() {
        BatchConfig.Lane lane = config.lane();
        // programmatic: each step of a round (a background run, not a CDI call) commits on its own
        return Panache.withTransaction(() -> tasks.trySubmitLock().flatMap(locked -> !locked
                ? Uni.createFrom().item(0)
                : rows.inFlight().flatMap(inFlight -> rows.rendered(lane.busyOver()).flatMap(rendered -> {
                    int free = LaneBound.of(lane, pool.slots(), rendered.rows(), rendered.millis())
                            - inFlight.intValue();
                    if (free <= 0) {
                        return Uni.createFrom().item(0);
                    }
                    return tasks.runnable().flatMap(runnable -> submit(SubmissionPlan.plan(runnable, free,
                            lane.maxInFlightPerTask())));
                }))));
    }

    /** Submits rows in the plan's order: per task, its next pending rows in file order. */
    private Uni<Integer> submit(List<UUID> plan) {
        if (plan.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Map<UUID, Integer> counts = new LinkedHashMap<>();
        plan.forEach(task -> counts.merge(task, 1, Integer::sum));
        Map<UUID, ArrayDeque<BatchRow>> pending = new HashMap<>();
        Map<UUID, BatchTask> byId = new HashMap<>();
        Map<UUID, JsonNode> templates = new HashMap<>();
        return Multi.createFrom().iterable(counts.entrySet())
                .onItem().transformToUniAndConcatenate(entry -> rows.lockPending(entry.getKey(), entry.getValue())
                        .invoke(found -> pending.put(entry.getKey(), new ArrayDeque<>(found)))
                        .chain(() -> Panache.getSession()
                                .flatMap(session -> session.find(BatchTask.class, entry.getKey())))
                        .invoke(task -> byId.put(entry.getKey(), task)))
                .collect().last()
                .chain(() -> Multi.createFrom().iterable(plan)
                        .onItem().transformToUniAndConcatenate(taskId -> {
                            BatchRow row = pending.get(taskId).poll();
                            return row == null
                                    ? Uni.createFrom().item(0)
                                    : submit(byId.get(taskId), row, templates).replaceWith(1);
                        })
                        .collect().with(Collectors.summingInt(Integer::intValue)));
    }

    /** One row's job goes out; {@code templates} keeps each task's parsed template for the round. */
    private Uni<Void> submit(BatchTask task, BatchRow row, Map<UUID, JsonNode> templates) {
        RenderJob job;
        try {
            JsonNode template = templates.get(task.id);
            if (template == null) {
                template = mapper.readTree(task.template);
                templates.put(task.id, template);
            }
            job = jobs.of(task, template, row);
        } catch (IOException e) {
            return Uni.createFrom().failure(new IllegalStateException("task " + task.id + " is unreadable", e));
        }
        return rows.submitted(task.id, row.rowNo()).chain(() -> publisher.publish(job));
    }

    // --- progress -------------------------------------------------------------------------------------------------

    /** Running tasks whose rows moved: a status event with {@code processed} and the projection, at most so often. */
    Uni<Integer> reportProgress() {
        // programmatic: each step of a round (a background run, not a CDI call) commits on its own
        return Panache.withTransaction(() -> tasks.lockProgressDue(config.progressEvery(), BATCH)
                .flatMap(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(task -> events.statusOf(task)
                                .chain(() -> tasks.reported(task.id)))
                        .collect().asList().map(List::size)));
    }

    // --- results --------------------------------------------------------------------------------------------------

    /** Applies one render result to its row, once; the task's counters move with it. */
    public Uni<Boolean> apply(UUID taskId, int rowNo, boolean success, String videoKey, String thumbnailKey,
            String message, Long renderMillis) {
        // programmatic: the round is woken after the commit, so that it sees the place this answer freed
        return Panache.withTransaction(() -> rows.answer(taskId, rowNo, success
                ? RowStatus.SUCCESS
                : RowStatus.FAILURE, videoKey, thumbnailKey, message, renderMillis)
                .flatMap(was -> {
                    if (was == RowStatus.RENDERING) {
                        return onView.answered(taskId, rowNo, success).replaceWith(true);
                    }
                    if (was == null) {
                        return Uni.createFrom().item(false);
                    }
                    // rows rendered, by outcome (the dashboard's "batch rows per minute")
                    registry.counter("pmedia.batch.rows", "status", success ? "success" : "failure").increment();
                    return tasks.countAnswer(taskId, success).replaceWith(true);
                }))
                .invoke(applied -> {
                    if (applied) {
                        wake();
                    }
                });
    }
}
