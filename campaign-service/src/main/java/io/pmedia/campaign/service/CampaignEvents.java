package io.pmedia.campaign.service;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.campaign.CampaignStatus;
import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.common.outbox.Outbox;
import io.smallrye.mutiny.Uni;

/** Publishes a campaign's status through the outbox, in the same transaction as the change (docs/events.md). */
@ApplicationScoped
public class CampaignEvents {

    static final String SOURCE = "/pmedia/campaign-service";

    private final Outbox outbox;
    private final ObjectMapper mapper;

    public CampaignEvents(Outbox outbox, ObjectMapper mapper) {
        this.outbox = outbox;
        this.mapper = mapper;
    }

    public Uni<Void> statusOf(CampaignSchedule schedule, CampaignStatus status, CampaignStatus previous) {
        ObjectNode data = mapper.createObjectNode()
                .put("client-id", schedule.clientId.toString())
                .put("campaign_id", schedule.campaignId)
                .put("status", status.name())
                .put("previous-status", previous == null ? null : previous.name())
                .put("start_time", schedule.startTime.toString())
                .put("end_time", schedule.endTime.toString());
        CloudEvent event = CloudEvent.of(SOURCE, Topics.CAMPAIGN_STATUS_CHANGED, schedule.resourceKey(), data);
        return outbox.add(Topics.CAMPAIGN_STATUS, schedule.resourceKey(), event);
    }
}
