package io.pmedia.gateway.repository;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.gateway.Client;
import io.smallrye.mutiny.Uni;

/**
 * Onboarded clients in PostgreSQL, read in the caller's reactive session. A deleted client (soft delete) is found by
 * none of these.
 */
@ApplicationScoped
public class ClientStore {

    private static final String FIND_ACTIVE = "SELECT * FROM client WHERE id = ?1 AND deleted_at IS NULL";
    private static final String ALL_ACTIVE = "SELECT * FROM client WHERE deleted_at IS NULL ORDER BY created_at";
    private static final String FIND_ACTIVE_BY_API_KEY_HASH = """
            SELECT * FROM client
             WHERE api_key_hash = ?1 AND deleted_at IS NULL
            """;

    /** The client with this id unless it does not exist or was deleted (null item). */
    public Uni<Client> findActive(UUID id) {
        return NativeSql.one(Client.class, FIND_ACTIVE, id);
    }

    /** Every client that was not deleted, oldest first. */
    public Uni<List<Client>> findAllActive() {
        return NativeSql.list(Client.class, ALL_ACTIVE);
    }

    /** The client whose API key has this hash, unless it was deleted (null item). */
    public Uni<Client> findActiveByApiKeyHash(String hash) {
        return NativeSql.one(Client.class, FIND_ACTIVE_BY_API_KEY_HASH, hash);
    }
}
