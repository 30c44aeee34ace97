package io.pmedia.campaign.service;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.campaign.repository.CampaignScheduleStore;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.paging.Cursor;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.events.CampaignStatus;
import io.pmedia.events.RenderMode;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;

/**
 * Setting and reading a campaign's schedule. A new or changed window takes the status it has right now (a window
 * that already started is ACTIVE at once); later changes are the {@link TransitionScheduler}'s.
 */
@ApplicationScoped
public class CampaignScheduling {

    private final CampaignScheduleStore store;
    private final CampaignEvents events;
    private final TransitionScheduler scheduler;
    private final Clock clock;

    public CampaignScheduling(CampaignScheduleStore store, CampaignEvents events, TransitionScheduler scheduler,
            Clock clock) {
        this.store = store;
        this.events = events;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /**
     * Sets the window and the render of the campaign's tasks ({@code render}: the whole schedule is what the request
     * says, so a reschedule that does not name it renders now). An ended campaign is a conflict.
     */
    @WithTransaction
    @WithSpan
    public Uni<CampaignSchedule> schedule(UUID clientId, String campaignId, Instant start, Instant end,
            RenderMode render) {
        // Concurrent schedules of one campaign take turns: the second sees the first's row and changes it.
        return CreateLock.take("campaign-schedule", clientId, campaignId)
                .flatMap(locked -> store.findOwned(clientId, campaignId)).flatMap(existing -> {
                    Instant now = clock.instant();
                    if (existing != null
                            && (existing.status == CampaignStatus.ENDED || !existing.endTime.isAfter(now))) {
                        return Uni.createFrom().failure(ApiException.conflict(
                                "campaign '" + campaignId + "' has ended; an ended campaign cannot be rescheduled"));
                    }
                    CampaignSchedule schedule = existing != null ? existing : newSchedule(clientId, campaignId, now);
                    CampaignStatus previous = existing == null ? null : existing.status;
                    CampaignStatus current = CampaignStatus.at(start, end, now);
                    schedule.startTime = start;
                    schedule.endTime = end;
                    schedule.render = render.wire();
                    schedule.status = current;
                    schedule.nextTransitionAt = current.nextTransition(start, end);
                    schedule.updatedAt = now;
                    return schedule.<CampaignSchedule>persist()
                            .call(saved -> events.statusOf(saved, current, previous))
                            .invoke(saved -> scheduler.armFor(saved.nextTransitionAt));
                });
    }

    /** A page of the client's campaigns, newest first; {@code status}, {@code from} and {@code to} filter. */
    @WithSession
    public Uni<Page<CampaignSchedule>> list(UUID clientId, CampaignStatus status, Instant from, Instant to,
            PageRequest page) {
        return store.page(clientId, page.keyset(from, to), status, page.fetchSize())
                .map(rows -> page.page(rows, schedule -> new Cursor(schedule.createdAt, schedule.id.toString())));
    }

    @WithSession
    public Uni<CampaignSchedule> read(UUID clientId, String campaignId) {
        return store.findOwned(clientId, campaignId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("campaign '" + campaignId + "' not found"));
    }

    private static CampaignSchedule newSchedule(UUID clientId, String campaignId, Instant now) {
        CampaignSchedule schedule = new CampaignSchedule();
        schedule.id = UUID.randomUUID();
        schedule.clientId = clientId;
        schedule.campaignId = campaignId;
        schedule.createdAt = now.truncatedTo(ChronoUnit.MICROS);
        return schedule;
    }
}
