package io.pmedia.batch.repository;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.smallrye.mutiny.Uni;

/** The latest status of every campaign (docs/campaigns.md, "contract for batch-service"). */
@ApplicationScoped
public class CampaignWindowStore {

    /** An older event (redelivered, or overtaken) never overwrites a newer one. */
    private static final String RECORD = """
            INSERT INTO campaign_window (client_id, campaign_id, status, event_time) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (client_id, campaign_id) DO UPDATE SET status = EXCLUDED.status, event_time = EXCLUDED.event_time
             WHERE campaign_window.event_time <= EXCLUDED.event_time
            """;

    /** Records a campaign's status at {@code eventTime}, unless a newer one is known. In the caller's transaction. */
    public Uni<Integer> record(UUID clientId, String campaignId, String status, Instant eventTime) {
        return NativeSql.update(RECORD, clientId, campaignId, status, eventTime);
    }
}
