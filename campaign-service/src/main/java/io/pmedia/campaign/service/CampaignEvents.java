package io.pmedia.campaign.service;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.CampaignStatus;
import io.pmedia.events.CampaignStatusChanged;
import io.pmedia.events.RenderMode;
import io.smallrye.mutiny.Uni;

/** Publishes a campaign's status through the outbox, in the same transaction as the change (docs/events.md). */
@ApplicationScoped
public class CampaignEvents {

    private final EventPublisher publisher;

    public CampaignEvents(EventPublisher publisher) {
        this.publisher = publisher;
    }

    public Uni<Void> statusOf(CampaignSchedule schedule, CampaignStatus status, CampaignStatus previous) {
        return publisher.publish(new CampaignStatusChanged(schedule.clientId, schedule.campaignId, status, previous,
                schedule.startTime, schedule.endTime, RenderMode.ofWire(schedule.render)));
    }
}
