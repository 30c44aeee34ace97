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

    /** The campaign's latest status and render; none when never scheduled. */
    private static final String WINDOW = """
            SELECT status, render FROM campaign_window WHERE client_id = ?1 AND campaign_id = ?2
            """;

    /**
     * A campaign's latest status ({@code SCHEDULED}, {@code ACTIVE}, {@code ENDED}) and how its tasks that do not say
     * are rendered ({@link io.pmedia.events.RenderMode#wire()}).
     */
    public record Window(String status, String render) {

        public boolean ended() {
            return "ENDED".equals(status);
        }
    }

    /**
     * Records a campaign's status and render at {@code eventTime}, unless a newer one is known. In the caller's
     * transaction.
     */
    public Uni<Integer> record(UUID clientId, String campaignId, String status, String render, Instant eventTime) {
        return NativeSql.update(RECORD, clientId, campaignId, status, render, eventTime);
    }

    /** The campaign's window as its latest event says, or a null item when it was never scheduled. */
    public Uni<Window> window(UUID clientId, String campaignId) {
        return NativeSql.one(Object[].class, WINDOW, clientId, campaignId)
                .map(row -> row == null ? null : new Window((String) row[0], (String) row[1]));
    }
}
