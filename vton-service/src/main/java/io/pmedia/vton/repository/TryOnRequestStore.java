package io.pmedia.vton.repository;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.common.paging.Cursor;
import io.pmedia.events.TryOnStatus;
import io.pmedia.vton.TryOnRequest;
import io.smallrye.mutiny.Uni;

/**
 * Try-on requests in PostgreSQL, also the work queue: a request waiting for an engine is a {@code PROCESSING} row
 * whose lease is free. Every method runs in the caller's reactive session (and transaction, where it opened one).
 */
@ApplicationScoped
public class TryOnRequestStore {

    /** The client's request; another client's id finds nothing. */
    private static final String FIND_OWNED = """
            SELECT * FROM tryon_request
             WHERE id = ?1 AND client_id = ?2
            """;

    /**
     * The oldest request waiting for an engine at {@code ?1}: never leased, or its lease ran out (the replica
     * working on it died). SKIP LOCKED: a row another replica is claiming right now is left to it.
     */
    private static final String CLAIM_NEXT = """
            SELECT * FROM tryon_request
             WHERE status = 'PROCESSING' AND (lease_until IS NULL OR lease_until < ?1)
             ORDER BY created_at
             LIMIT 1
               FOR UPDATE SKIP LOCKED
            """;

    /** The client's unfinished request with exactly these inputs, if any (the doubled-create check). */
    private static final String PROCESSING_SAME = """
            SELECT * FROM tryon_request
             WHERE client_id = ?1 AND user_id = ?2 AND usecase_id = ?3 AND model_image = ?4 AND garment_images = ?5
               AND category = ?6 AND mode = ?7 AND moderation_level = ?8 AND segmentation_free = ?9
               AND output_format = ?10 AND status = 'PROCESSING'
             ORDER BY created_at DESC
             LIMIT 1
            """;

    /**
     * A page of the client's requests, newest first, before the keyset bound {@code (?2, ?3)}, from {@code ?4} on,
     * with the status {@code ?5} and use case {@code ?6} when given (GET /vton/requests).
     */
    private static final String PAGE = """
            SELECT * FROM tryon_request
             WHERE client_id = ?1
               AND (created_at, id) < (CAST(?2 AS timestamptz), CAST(?3 AS uuid))
               AND created_at >= CAST(?4 AS timestamptz)
               AND (CAST(?5 AS text) IS NULL OR status = CAST(?5 AS text))
               AND (CAST(?6 AS text) IS NULL OR usecase_id = CAST(?6 AS text))
             ORDER BY created_at DESC, id DESC
             LIMIT ?7
            """;

    /** The smallest uuid: a bound with no id excludes every request of its time. */
    private static final UUID NO_ID = new UUID(0, 0);
    private static final Instant BEGINNING = Instant.parse("1970-01-01T00:00:00Z");

    /** Up to {@code limit} of the client's requests created in {@code [from, bound)}, newest first. */
    public Uni<List<TryOnRequest>> page(UUID clientId, Cursor bound, Instant from, TryOnStatus status,
            String usecaseId, int limit) {
        return NativeSql.list(TryOnRequest.class, PAGE, clientId, bound.time(),
                bound.id() == null ? NO_ID : bound.uuid(), from == null ? BEGINNING : from,
                status == null ? null : status.name(), usecaseId, limit);
    }

    /** The client's request, or a null item. */
    public Uni<TryOnRequest> findOwned(UUID id, UUID clientId) {
        return NativeSql.one(TryOnRequest.class, FIND_OWNED, id, clientId);
    }

    /** The client's unfinished request with the same inputs as {@code like}, or a null item. */
    public Uni<TryOnRequest> processingSame(TryOnRequest like) {
        // Closed sets as their stored spelling (a native query binds an enum as its ordinal otherwise).
        return NativeSql.one(TryOnRequest.class, PROCESSING_SAME, like.clientId, like.userId, like.usecaseId,
                like.modelImage, like.garmentImages, like.category.wire(), like.mode.wire(),
                like.moderationLevel.wire(), like.segmentationFree, like.outputFormat.wire());
    }

    /** Locks the next request due at {@code now}, or a null item; the caller leases it. Needs a transaction. */
    public Uni<TryOnRequest> claimNext(Instant now) {
        return NativeSql.one(TryOnRequest.class, CLAIM_NEXT, now);
    }
}
