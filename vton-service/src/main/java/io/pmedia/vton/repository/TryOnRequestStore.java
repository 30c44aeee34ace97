package io.pmedia.vton.repository;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.common.paging.Keyset;
import io.pmedia.common.repository.KeysetQuery;
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

    /** GET /vton/requests: the client's requests, newest first, by status and use case when given. */
    private static final String PAGE = KeysetQuery.of("tryon_request", KeysetQuery.Filter.text("status"),
            KeysetQuery.Filter.text("usecase_id"));

    /** Up to {@code limit} of the client's requests below the keyset, newest first. */
    public Uni<List<TryOnRequest>> page(UUID clientId, Keyset keyset, TryOnStatus status, String usecaseId,
            int limit) {
        return NativeSql.list(TryOnRequest.class, PAGE, KeysetQuery.parameters(clientId, keyset, limit,
                status == null ? null : status.name(), usecaseId));
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
