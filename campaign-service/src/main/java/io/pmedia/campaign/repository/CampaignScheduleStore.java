package io.pmedia.campaign.repository;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.campaign.CampaignSchedule;
import io.pmedia.common.db.NativeSql;
import io.pmedia.common.paging.Keyset;
import io.pmedia.common.repository.KeysetQuery;
import io.pmedia.events.CampaignStatus;
import io.smallrye.mutiny.Uni;

/**
 * Campaign schedules in PostgreSQL. Every method runs in the caller's reactive session (and transaction, where the
 * caller opened one): a claim's row locks last until that transaction ends.
 */
@ApplicationScoped
public class CampaignScheduleStore {

    /** The client's campaign; another client's campaign of the same name is a different row. */
    private static final String FIND_OWNED = """
            SELECT * FROM campaign_schedule
             WHERE client_id = ?1 AND campaign_id = ?2
            """;

    /**
     * Claims the transitions due at {@code ?1}, oldest first. SKIP LOCKED: a row another replica is firing is left
     * to it, so each transition fires once however many replicas run.
     */
    private static final String CLAIM_DUE = """
            SELECT * FROM campaign_schedule
             WHERE next_transition_at <= ?1
             ORDER BY next_transition_at
             LIMIT ?2
               FOR UPDATE SKIP LOCKED
            """;

    /** When the next transition of any campaign is due (null when none is): what the precise timer is armed for. */
    private static final String NEXT_DUE = """
            SELECT min(next_transition_at) FROM campaign_schedule
            """;

    /** GET /campaigns: the client's campaigns, newest first, by status when given. */
    private static final String PAGE = KeysetQuery.of("campaign_schedule", KeysetQuery.Filter.text("status"));

    /** Up to {@code limit} of the client's campaigns below the keyset, newest first. */
    public Uni<List<CampaignSchedule>> page(UUID clientId, Keyset keyset, CampaignStatus status, int limit) {
        return NativeSql.list(CampaignSchedule.class, PAGE, KeysetQuery.parameters(clientId, keyset, limit,
                status == null ? null : status.name()));
    }

    /** The client's campaign, or a null item. */
    public Uni<CampaignSchedule> findOwned(UUID clientId, String campaignId) {
        return NativeSql.one(CampaignSchedule.class, FIND_OWNED, clientId, campaignId);
    }

    /** Locks and returns at most {@code limit} schedules whose transition is due at {@code now}. Needs a transaction. */
    public Uni<List<CampaignSchedule>> claimDue(Instant now, int limit) {
        return NativeSql.list(CampaignSchedule.class, CLAIM_DUE, now, limit);
    }

    /** The earliest pending transition, or a null item. */
    public Uni<Instant> nextDue() {
        return NativeSql.one(Instant.class, NEXT_DUE);
    }
}
