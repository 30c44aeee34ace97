package io.pmedia.campaign.service;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.campaign.config.CampaignConfig;
import io.pmedia.campaign.repository.CampaignScheduleStore;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.events.CampaignStatus;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Fires status transitions at their time, with no request coming in. Due rows are claimed with
 * {@code FOR UPDATE SKIP LOCKED}, so with several replicas each transition fires exactly once; the row and its
 * events commit together. A timer armed for the next due transition gives sub-second precision; a poll every
 * second is the safety net and, at start-up, catches up on whatever came due while no replica was running.
 */
@ApplicationScoped
public class TransitionScheduler {

    private static final Logger LOG = Logger.getLogger(TransitionScheduler.class);

    private final Vertx vertx;
    private final CampaignScheduleStore store;
    private final CampaignEvents events;
    private final Clock clock;
    private final CampaignConfig.Scheduler config;
    private final AtomicLong armedAt = new AtomicLong(Long.MAX_VALUE);
    private volatile boolean started;
    private long pollTimer = -1;
    private long dueTimer = -1;

    public TransitionScheduler(Vertx vertx, CampaignScheduleStore store, CampaignEvents events, Clock clock,
            CampaignConfig config) {
        this.vertx = vertx;
        this.store = store;
        this.events = events;
        this.clock = clock;
        this.config = config.scheduler();
    }

    void onStart(@Observes StartupEvent event) {
        if (config.enabled()) {
            start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }

    /** Starts firing: first whatever is overdue (transitions missed while down), then on time. */
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        pollTimer = vertx.setPeriodic(0, config.pollInterval().toMillis(), id -> runOnce());
    }

    public synchronized void stop() {
        started = false;
        vertx.cancelTimer(pollTimer);
        vertx.cancelTimer(dueTimer);
        armedAt.set(Long.MAX_VALUE);
    }

    /** Arms a precise timer for a transition due at {@code when}, unless an earlier one is armed already. */
    public void armFor(Instant when) {
        if (!started || when == null) {
            return;
        }
        long at = when.toEpochMilli();
        long current = armedAt.get();
        if (at >= current || !armedAt.compareAndSet(current, at)) {
            return;
        }
        long delay = Math.max(1, at - clock.millis() + 5);
        synchronized (this) {
            vertx.cancelTimer(dueTimer);
            dueTimer = vertx.setTimer(delay, id -> {
                armedAt.compareAndSet(at, Long.MAX_VALUE);
                runOnce();
            });
        }
    }

    private void runOnce() {
        if (!started) {
            return;
        }
        BackgroundWork.run(vertx, "firing campaign transitions", this::fireDue);
    }

    /**
     * Claims the transitions due now and fires them, each with its event, in one transaction. Returns how many
     * transitions fired. Safe to run concurrently from any number of replicas.
     */
    public Uni<Integer> fireDue() {
        Instant now = clock.instant();
        // programmatic: the transitions commit first, then a session of its own reads when the timer is due next
        return Panache.withTransaction(() -> store.claimDue(now, config.batchSize())
                .flatMap(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(schedule -> advance(schedule, now))
                        .collect().with(Collectors.summingInt(Integer::intValue))))
                .invoke(fired -> {
                    if (fired > 0) {
                        LOG.debugf("fired %d campaign transitions", fired);
                    }
                })
                .call(ignored -> Panache.withSession(store::nextDue).invoke(this::armFor));
    }

    /** Moves one campaign to the status it has at {@code now}, one step (and one event) at a time. */
    private Uni<Integer> advance(CampaignSchedule schedule, Instant now) {
        CampaignStatus target = CampaignStatus.at(schedule.startTime, schedule.endTime, now);
        if (schedule.status == target || schedule.status == CampaignStatus.ENDED) {
            schedule.nextTransitionAt = schedule.status.nextTransition(schedule.startTime, schedule.endTime);
            return Uni.createFrom().item(0);
        }
        CampaignStatus previous = schedule.status;
        CampaignStatus next = previous.next();
        schedule.status = next;
        schedule.nextTransitionAt = next.nextTransition(schedule.startTime, schedule.endTime);
        schedule.updatedAt = now;
        return events.statusOf(schedule, next, previous)
                .flatMap(ignored -> advance(schedule, now))
                .map(more -> more + 1);
    }

    /** For tests and operators: whether this replica is firing transitions. */
    public boolean running() {
        return started;
    }
}
