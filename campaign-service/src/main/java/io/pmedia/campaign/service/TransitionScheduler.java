package io.pmedia.campaign.service;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.hibernate.reactive.mutiny.Mutiny;
import org.jboss.logging.Logger;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.campaign.CampaignStatus;
import io.pmedia.campaign.config.CampaignConfig;
import io.pmedia.common.concurrent.BackgroundWork;
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
    private static final String CLAIM_DUE = "SELECT * FROM campaign_schedule WHERE next_transition_at <= ?1"
            + " ORDER BY next_transition_at LIMIT ?2 FOR UPDATE SKIP LOCKED";

    private final Vertx vertx;
    private final CampaignEvents events;
    private final CampaignConfig.Scheduler config;
    private final AtomicLong armedAt = new AtomicLong(Long.MAX_VALUE);
    private volatile boolean started;
    private long pollTimer = -1;
    private long dueTimer = -1;

    public TransitionScheduler(Vertx vertx, CampaignEvents events, CampaignConfig config) {
        this.vertx = vertx;
        this.events = events;
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
        long delay = Math.max(1, at - System.currentTimeMillis() + 5);
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
        Instant now = Instant.now();
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> claimDue(session, now))
                .flatMap(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(schedule -> advance(schedule, now))
                        .collect().with(java.util.stream.Collectors.summingInt(Integer::intValue))))
                .invoke(fired -> {
                    if (fired > 0) {
                        LOG.debugf("fired %d campaign transitions", fired);
                    }
                })
                .call(ignored -> nextDue().invoke(this::armFor));
    }

    private Uni<List<CampaignSchedule>> claimDue(Mutiny.Session session, Instant now) {
        return session.createNativeQuery(CLAIM_DUE, CampaignSchedule.class)
                .setParameter(1, now)
                .setParameter(2, config.batchSize())
                .getResultList();
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

    private Uni<Instant> nextDue() {
        return Panache.withSession(() -> Panache.getSession().flatMap(session -> session
                .createNativeQuery("SELECT min(next_transition_at) FROM campaign_schedule", Instant.class)
                .getSingleResultOrNull()));
    }

    /** For tests and operators: whether this replica is firing transitions. */
    public boolean running() {
        return started;
    }
}
