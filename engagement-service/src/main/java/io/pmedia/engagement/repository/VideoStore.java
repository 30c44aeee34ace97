package io.pmedia.engagement.repository;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.engagement.SharedVideoRow;
import io.smallrye.mutiny.Uni;

/** The projection of shareable videos, in the caller's session and transaction. */
@ApplicationScoped
public class VideoStore {

    /** A video by its share id (whatever its state: the caller decides what a state answers). */
    private static final String BY_SHARE = """
            SELECT * FROM shared_video WHERE share_id = ?1
            """;

    /**
     * {@link #BY_SHARE}, its row locked until the transaction ends: the projection reads what a page event changes
     * under the lock, so the change it judges (a render on view that ended) is judged once, whoever else applies the
     * same event at the same moment.
     */
    private static final String LOCK_BY_SHARE = """
            SELECT * FROM shared_video WHERE share_id = ?1 FOR UPDATE
            """;

    /** The client's realtime request's video; another client's request finds nothing. */
    private static final String BY_REQUEST = """
            SELECT * FROM shared_video WHERE client_id = ?1 AND service_request_id = ?2
            """;

    /** The client's videos of a campaign, in task and row order, a page at a time (the CSV export). */
    private static final String OF_CAMPAIGN = """
            SELECT * FROM shared_video
             WHERE client_id = ?1 AND campaign_id = ?2 AND share_id > ?3
             ORDER BY share_id
             LIMIT ?4
            """;

    /** Whether the client has any video of a template, or of a campaign (else their analytics are 404). */
    private static final String HAS_TEMPLATE = """
            SELECT count(*) FROM (SELECT 1 FROM shared_video WHERE client_id = ?1 AND template_id = ?2 LIMIT 1) v
            """;
    private static final String HAS_CAMPAIGN = """
            SELECT count(*) FROM (SELECT 1 FROM shared_video WHERE client_id = ?1 AND campaign_id = ?2 LIMIT 1) v
            """;

    /** Records the email GIF made for a video. */
    private static final String SET_EMAIL_GIF = """
            UPDATE shared_video SET email_gif_key = ?2 WHERE share_id = ?1
            """;

    /**
     * Claims the render of a video rendered on first view, once (docs/sharing.md, "Render on first view"): the first
     * open of a live link without a video ({@code ?2} false), or a viewer's retry after its render failed ({@code ?2}
     * true, while it has fewer than {@code ?3} claims). The row's lock serialises any number of opens at the same
     * moment, on any replica: one of them changes it, the others find it claimed. Its claims so far, or nothing.
     */
    private static final String CLAIM_RENDER = """
            UPDATE shared_video SET render = 'on-view', render_requested_at = now(),
                   render_attempts = render_attempts + 1, updated_at = now()
             WHERE share_id = ?1 AND state = 'ACTIVE' AND video_key IS NULL
               AND (expires_at IS NULL OR expires_at > now())
               AND ((render = 'on-view' AND render_requested_at IS NULL)
                    OR (?2 AND render = 'failed' AND render_attempts < ?3))
            RETURNING render_attempts
            """;

    public Uni<Integer> claimRender(String shareId, boolean retry, int maxAttempts) {
        return NativeSql.one(Integer.class, CLAIM_RENDER, shareId, retry, maxAttempts);
    }

    public Uni<SharedVideoRow> byShare(String shareId) {
        return NativeSql.one(SharedVideoRow.class, BY_SHARE, shareId);
    }

    public Uni<SharedVideoRow> lockByShare(String shareId) {
        return NativeSql.one(SharedVideoRow.class, LOCK_BY_SHARE, shareId);
    }

    public Uni<SharedVideoRow> byRequest(UUID clientId, UUID serviceRequestId) {
        return NativeSql.one(SharedVideoRow.class, BY_REQUEST, clientId, serviceRequestId);
    }

    public Uni<List<SharedVideoRow>> ofCampaign(UUID clientId, String campaignId, String after, int limit) {
        return NativeSql.list(SharedVideoRow.class, OF_CAMPAIGN, clientId, campaignId, after, limit);
    }

    public Uni<Boolean> hasTemplate(UUID clientId, UUID templateId) {
        return NativeSql.one(Long.class, HAS_TEMPLATE, clientId, templateId).map(count -> count != null && count > 0);
    }

    public Uni<Boolean> hasCampaign(UUID clientId, String campaignId) {
        return NativeSql.one(Long.class, HAS_CAMPAIGN, clientId, campaignId).map(count -> count != null && count > 0);
    }

    public Uni<Integer> setEmailGif(String shareId, String key) {
        return NativeSql.update(SET_EMAIL_GIF, shareId, key);
    }
}
