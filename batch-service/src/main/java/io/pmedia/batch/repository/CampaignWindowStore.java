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
            INSERT INTO campaign_window (client_id, campaign_id, status, render, event_time) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (client_id, campaign_id) DO UPDATE SET status = EXCLUDED.status, render = EXCLUDED.render,
                   event_time = EXCLUDED.event_time
             WHERE campaign_window.event_time <= EXCLUDED.event_time
            """;

    /** How the campaign's tasks that do not say are rendered, as its latest event says; none when never scheduled. */
    private static final String RENDER = """
            SELECT render FROM campaign_window WHERE client_id = ?1 AND campaign_id = ?2
            """;

    /**
     * Records a campaign's status and render at {@code eventTime}, unless a newer one is known. In the caller's
     * transaction.
     */
    public Uni<Integer> record(UUID clientId, String campaignId, String status, String render, Instant eventTime) {
        return NativeSql.update(RECORD, clientId, campaignId, status, render, eventTime);
    }

    /** The campaign's render ({@link io.pmedia.events.RenderMode#wire()}), or a null item when it has no window. */
    public Uni<String> render(UUID clientId, String campaignId) {
        return NativeSql.one(String.class, RENDER, clientId, campaignId);
    }
}
