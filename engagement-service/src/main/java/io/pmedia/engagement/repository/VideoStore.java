package io.pmedia.engagement.repository;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import io.pmedia.common.db.NativeSql;
import io.pmedia.engagement.SharedVideoRow;
import io.smallrye.mutiny.Uni;

/** The projection of shareable videos, in the caller's session and transaction. */
@ApplicationScoped
public class VideoStore {

    /** A new link's row as {@link #INSERT_NEW} reads it: the columns of {@code shared_video} it is inserted with. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NewVideo(String shareId, UUID clientId, String source, UUID serviceRequestId, UUID taskId,
            Integer rowNo, String campaignId, UUID templateId, Integer templateVersion, String useCaseId,
            String userId, String state, String title, String ctaLabel, String ctaUrl, String logoUrl, String color,
            String videoKey, String posterKey, String captionsKey, Integer width, Integer height,
            Double durationSeconds, @JsonFormat(shape = JsonFormat.Shape.STRING) Instant createdAt,
            @JsonFormat(shape = JsonFormat.Shape.STRING) Instant expiresAt, String render, String streamKey) {
    }

    private final ObjectMapper mapper;

    public VideoStore(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** A video by its share id (whatever its state: the caller decides what a state answers). */
    private static final String BY_SHARE = """
            SELECT * FROM shared_video WHERE share_id = ?1
            """;

    /**
     * The rows of one page event's share ids ({@code ?1}: a JSON array of them) that exist, locked until the
     * transaction ends: the projection reads what a page event changes under the lock, so the change it judges (a
     * render on view that ended) is judged once, whoever else applies the same event at the same moment. In share id
     * order, so two transactions locking some of the same rows cannot each wait for the other.
     */
    private static final String LOCK_BY_SHARES = """
            SELECT * FROM shared_video
             WHERE share_id IN (SELECT jsonb_array_elements_text(CAST(CAST(?1 AS text) AS jsonb)))
             ORDER BY share_id
             FOR UPDATE
            """;

    /**
     * The links of one page event the projection has no row of, in one statement ({@code ?1}: a JSON array of
     * {@link NewVideo}); a link it has (or another transaction inserts meanwhile) is left as it is, for
     * {@link #LOCK_BY_SHARES} and the change of one link at a time. Answers the share ids it inserted.
     */
    private static final String INSERT_NEW = """
            INSERT INTO shared_video (share_id, client_id, source, service_request_id, task_id, row_no, campaign_id,
                                      template_id, template_version, use_case_id, user_id, state, title, cta_label,
                                      cta_url, logo_url, color, video_key, poster_key, captions_key, width, height,
                                      duration_seconds, created_at, expires_at, updated_at, render, stream_key)
            SELECT v.share_id, v.client_id, v.source, v.service_request_id, v.task_id, v.row_no, v.campaign_id,
                   v.template_id, v.template_version, v.use_case_id, v.user_id, v.state, v.title, v.cta_label,
                   v.cta_url, v.logo_url, v.color, v.video_key, v.poster_key, v.captions_key, v.width, v.height,
                   v.duration_seconds, v.created_at, v.expires_at, now(), v.render, v.stream_key
            FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))
                 AS v(share_id text, client_id uuid, source text, service_request_id uuid, task_id uuid, row_no integer,
                      campaign_id text, template_id uuid, template_version integer, use_case_id text, user_id text,
                      state text, title text, cta_label text, cta_url text, logo_url text, color text, video_key text,
                      poster_key text, captions_key text, width integer, height integer,
                      duration_seconds double precision, created_at timestamptz, expires_at timestamptz, render text,
                      stream_key text)
            ON CONFLICT (share_id) DO NOTHING
            RETURNING share_id
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

    /** The rows of {@code shareIds} that exist, locked until the transaction ends. */
    public Uni<List<SharedVideoRow>> lockByShares(List<String> shareIds) {
        return NativeSql.list(SharedVideoRow.class, LOCK_BY_SHARES, json(shareIds));
    }

    /** Inserts the links that have no row, in one statement; the share ids it inserted. */
    public Uni<List<String>> insertNew(List<NewVideo> videos) {
        return videos.isEmpty()
                ? Uni.createFrom().item(List.of())
                : NativeSql.list(String.class, INSERT_NEW,
                        json(videos));
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

    /**
     * Values as one JSON text; the statements read it with {@code CAST(CAST(?1 AS text) AS jsonb)}, because the
     * reactive driver binds a string given for a {@code jsonb} parameter as a JSON string, not as the document.
     */
    private String json(Object values) {
        try {
            return mapper.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("links cannot be serialized: " + e.getMessage(), e);
        }
    }
}
