package io.pmedia.vton.repository;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
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

    /** The client's request, or a null item. */
    public Uni<TryOnRequest> findOwned(UUID id, UUID clientId) {
        return NativeSql.one(TryOnRequest.class, FIND_OWNED, id, clientId);
    }

    /** Locks the next request due at {@code now}, or a null item; the caller leases it. Needs a transaction. */
    public Uni<TryOnRequest> claimNext(Instant now) {
        return NativeSql.one(TryOnRequest.class, CLAIM_NEXT, now);
    }
}
