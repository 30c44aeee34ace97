package io.pmedia.batch.messaging;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import io.pmedia.batch.service.Dispatcher;
import io.pmedia.events.CampaignStatusChanged;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.smallrye.mutiny.Uni;

/**
 * The latest status of every campaign, from {@code pmedia.campaign.status} (docs/campaigns.md): a task waits while
 * its campaign is {@code SCHEDULED} and stops when it has {@code ENDED}; one that does not say {@code render} takes
 * the campaign's. An older event never overwrites a newer one.
 */
@ApplicationScoped
public class CampaignWindows {

    private static final Logger LOG = Logger.getLogger(CampaignWindows.class);

    private final EventCodec codec;
    private final Dispatcher dispatcher;

    public CampaignWindows(EventCodec codec, Dispatcher dispatcher) {
        this.codec = codec;
        this.dispatcher = dispatcher;
    }

    @Incoming("campaign-status")
    public Uni<Void> onStatus(String envelope) {
        UUID clientId;
        String campaignId;
        String status;
        String render;
        Instant time;
        try {
            CloudEvent event = codec.read(envelope);
            CampaignStatusChanged changed = codec.data(event, CampaignStatusChanged.class).orElse(null);
            if (changed == null) {
                return Uni.createFrom().voidItem();
            }
            if (changed.clientId() == null || changed.campaignId() == null || changed.campaignId().isEmpty()
                    || changed.status() == null || event.time() == null) {
                throw new IllegalArgumentException("no client-id, campaign_id, status or time");
            }
            clientId = changed.clientId();
            campaignId = changed.campaignId();
            status = changed.status().name();
            render = changed.renderMode().wire();
            time = event.time();
        } catch (EventCodec.UnreadableEvent | IllegalArgumentException e) {
            LOG.errorf("dropping a campaign event that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        return dispatcher.campaignStatus(clientId, campaignId, status, render, time)
                .invoke(dispatcher::wake)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("campaign event for %s/%s not applied: %s", clientId, campaignId, failure.getMessage());
                    return 0;
                })
                .replaceWithVoid();
    }
}
