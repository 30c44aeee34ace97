package io.pmedia.media.repository;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.common.paging.Keyset;
import io.pmedia.common.repository.KeysetQuery;
import io.pmedia.events.MediaStatus;
import io.pmedia.media.MediaRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;

/**
 * Realtime requests in PostgreSQL. Every method runs in the caller's reactive session (and transaction, where the
 * caller opened one); locks taken here last until that transaction ends.
 */
@ApplicationScoped
public class MediaRequestStore {

    /** PostgreSQL's SQLSTATE for a unique violation. */
    private static final String UNIQUE_VIOLATION = "23505";

    /** A request by its idempotency key: the client and its client-request-id (unique together). */
    private static final String FIND_BY_CLIENT_REQUEST = """
            SELECT * FROM media_request
             WHERE client_id = ?1 AND client_request_id = ?2
            """;

    /** The client's request by its service-request-id; another client's id finds nothing. */
    private static final String FIND_OWNED = """
            SELECT * FROM media_request
             WHERE id = ?1 AND client_id = ?2
            """;

    /** A request, locked: a render result and the stale-render sweep never update one request at once. */
    private static final String LOCK = """
            SELECT * FROM media_request
             WHERE id = ?1
               FOR UPDATE
            """;

    /**
     * Requests still rendering that have not changed since {@code ?1}: their render was lost or is stuck. An on-view
     * request nobody opened has no render to lose and is left out (the predicate of the index
     * {@code media_request_rendering}, V11). SKIP LOCKED, so replicas sweeping at once share the work.
     */
    private static final String CLAIM_STALE = """
            SELECT * FROM media_request
             WHERE status = 'PROCESSING' AND (render = 'now' OR render_admitted_at IS NOT NULL) AND updated_at < ?1
             ORDER BY updated_at
             LIMIT ?2
               FOR UPDATE SKIP LOCKED
            """;

    /**
     * Claims the render of the client's on-view request, once (docs/sharing.md, "Render on first view"): unclaimed to
     * claimed, only while it awaits its first view within its retention (a render after it would store objects the
     * retention sweep has already deleted) and only for that client and share id ({@code ?3}; null: the owner's status
     * read, which names no link). The row's lock serialises claims at the same moment: one changes it,
     * the others (a redelivered or forged message, a second open) find it claimed and change nothing.
     */
    private static final String CLAIM_VIEW = """
            UPDATE media_request
               SET render_claimed_at = now(), attempts = 1, message = 'rendering', updated_at = now()
             WHERE id = ?1 AND client_id = ?2 AND (CAST(?3 AS text) IS NULL OR share_id = CAST(?3 AS text))
               AND render = 'on-view' AND render_claimed_at IS NULL AND status = 'PROCESSING'
               AND expires_at > now()
            """;

    /** Renders on view admitted onto the realtime lane and not ended (docs/media.md, "Render on first view"). */
    private static final String VIEWS_IN_FLIGHT = """
            SELECT count(*) FROM media_request
             WHERE status = 'PROCESSING' AND render = 'on-view' AND render_admitted_at IS NOT NULL
            """;

    /** Claimed renders on view waiting for admission, first claimed first, locked (replicas take different ones). */
    private static final String VIEWS_WAITING = """
            SELECT * FROM media_request
             WHERE status = 'PROCESSING' AND render = 'on-view' AND render_claimed_at IS NOT NULL
               AND render_admitted_at IS NULL
             ORDER BY render_claimed_at, id
             LIMIT ?1
               FOR UPDATE SKIP LOCKED
            """;

    /** GET /media/requests: the client's requests, newest first, by status and use case when given. */
    private static final String PAGE = KeysetQuery.of("media_request", KeysetQuery.Filter.text("status"),
            KeysetQuery.Filter.text("use_case_id"));

    /** The client's request with this client-request-id, or a null item. */
    public Uni<MediaRequest> findByClientRequest(UUID clientId, String clientRequestId) {
        return NativeSql.one(MediaRequest.class, FIND_BY_CLIENT_REQUEST, clientId, clientRequestId);
    }

    /** The client's request, or a null item (also for another client's id). */
    public Uni<MediaRequest> findOwned(UUID clientId, UUID id) {
        return NativeSql.one(MediaRequest.class, FIND_OWNED, id, clientId);
    }

    /**
     * Up to {@code limit} of the client's requests below the keyset, newest first, ties by id
     * descending; {@code status} and {@code useCaseId} filter when not null.
     */
    public Uni<List<MediaRequest>> page(UUID clientId, Keyset keyset, MediaStatus status, String useCaseId,
            int limit) {
        return NativeSql.list(MediaRequest.class, PAGE, KeysetQuery.parameters(clientId, keyset, limit,
                status == null ? null : status.name(), useCaseId));
    }

    /** The request locked until the transaction ends, or a null item. Needs a transaction. */
    public Uni<MediaRequest> lock(UUID id) {
        return NativeSql.one(MediaRequest.class, LOCK, id);
    }

    /** Locks and returns at most {@code limit} requests rendering since before {@code cutoff}. Needs a transaction. */
    public Uni<List<MediaRequest>> claimStale(Instant cutoff, int limit) {
        return NativeSql.list(MediaRequest.class, CLAIM_STALE, cutoff, limit);
    }

    /** How many renders on view are in flight (admitted, not ended). */
    public Uni<Long> viewsInFlight() {
        return NativeSql.one(Long.class, VIEWS_IN_FLIGHT);
    }

    /** Locks and returns at most {@code limit} claimed renders on view waiting for admission. Needs a transaction. */
    public Uni<List<MediaRequest>> viewsWaiting(int limit) {
        return NativeSql.list(MediaRequest.class, VIEWS_WAITING, limit);
    }

    /** 1 when this call claimed the render of the client's on-view request, else 0. Needs a transaction. */
    public Uni<Integer> claimView(UUID id, UUID clientId, String shareId) {
        return NativeSql.update(CLAIM_VIEW, id, clientId, shareId);
    }

    /**
     * Whether {@code failure} is a second insert of an idempotency key (two identical requests at once), seen
     * through whatever Hibernate wrapped it in.
     */
    public static boolean isDuplicateKey(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState())
                    || cause instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
