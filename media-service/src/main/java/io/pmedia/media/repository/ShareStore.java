package io.pmedia.media.repository;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.media.MediaRequest;
import io.smallrye.mutiny.Uni;

/** The share links of realtime requests (docs/sharing.md), in the caller's session and transaction. */
@ApplicationScoped
public class ShareStore {

    /** The client's request, locked: a revoke and the retention sweep never change one link at once. */
    private static final String LOCK_OWNED = """
            SELECT * FROM media_request
             WHERE id = ?1 AND client_id = ?2
               FOR UPDATE
            """;

    /** Active links whose retention ended by {@code ?1}, oldest first; SKIP LOCKED so replicas share the sweep. */
    private static final String CLAIM_EXPIRED = """
            SELECT * FROM media_request
             WHERE share_state = 'ACTIVE' AND expires_at <= ?1
             ORDER BY expires_at
             LIMIT ?2
               FOR UPDATE SKIP LOCKED
            """;

    /** The client's request, locked; a null item when it has none of that id. Needs a transaction. */
    public Uni<MediaRequest> lockOwned(UUID id, UUID clientId) {
        return NativeSql.one(MediaRequest.class, LOCK_OWNED, id, clientId);
    }

    /** Locks at most {@code limit} requests whose link has outlived its retention at {@code now}. */
    public Uni<List<MediaRequest>> claimExpired(Instant now, int limit) {
        return NativeSql.list(MediaRequest.class, CLAIM_EXPIRED, now, limit);
    }
}
