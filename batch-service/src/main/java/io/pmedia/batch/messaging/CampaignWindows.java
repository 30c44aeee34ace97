package io.pmedia.batch.messaging;

import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.service.Dispatcher;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The latest status of every campaign, from {@code pmedia.campaign.status} (docs/campaigns.md): a task waits while
 * its campaign is {@code SCHEDULED} and stops when it has {@code ENDED}. An older event never overwrites a newer one.
 */
@ApplicationScoped
public class CampaignWindows {

    private static final Logger LOG = Logger.getLogger(CampaignWindows.class);

    private final ObjectMapper mapper;
    private final Dispatcher dispatcher;

    public CampaignWindows(ObjectMapper mapper, Dispatcher dispatcher) {
        this.mapper = mapper;
        this.dispatcher = dispatcher;
    }

    @Incoming("campaign-status")
    public Uni<Void> onStatus(String envelope) {
        UUID clientId;
        String campaignId;
        String status;
        OffsetDateTime time;
        try {
            JsonNode event = mapper.readTree(envelope);
            JsonNode data = event.path("data");
            clientId = UUID.fromString(data.path("client-id").asText());
            campaignId = data.path("campaign_id").asText();
            status = data.path("status").asText();
            time = OffsetDateTime.parse(event.path("time").asText());
            if (campaignId.isEmpty() || status.isEmpty()) {
                throw new IllegalArgumentException("no campaign_id or status");
            }
        } catch (IOException | RuntimeException e) {
            LOG.errorf("dropping a campaign event that cannot be read: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        return Panache.withTransaction(() -> Panache.getSession().flatMap(session -> session
                .createNativeQuery("INSERT INTO campaign_window (client_id, campaign_id, status, event_time)"
                        + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (client_id, campaign_id) DO UPDATE SET"
                        + " status = EXCLUDED.status, event_time = EXCLUDED.event_time"
                        + " WHERE campaign_window.event_time <= EXCLUDED.event_time")
                .setParameter(1, clientId).setParameter(2, campaignId).setParameter(3, status)
                .setParameter(4, time).executeUpdate()))
                .invoke(dispatcher::wake)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("campaign event for %s/%s not applied: %s", clientId, campaignId, failure.getMessage());
                    return 0;
                })
                .replaceWithVoid();
    }
}
