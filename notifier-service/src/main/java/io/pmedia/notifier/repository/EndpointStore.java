package io.pmedia.notifier.repository;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Webhook endpoints the notifier disabled (too many failures in a row) in PostgreSQL, per client and URL, with why:
 * kept apart from the deliveries, which keep their own history.
 */
@ApplicationScoped
public class EndpointStore {

    private final Pool pool;

    public EndpointStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> disableEndpoint(UUID clientId, String url, String reason) {
        return pool.preparedQuery("INSERT INTO webhook_endpoint (client_id, url, disabled_at, disabled_reason)"
                + " VALUES ($1, $2, now(), $3) ON CONFLICT (client_id, url) DO UPDATE"
                + " SET disabled_at = now(), disabled_reason = EXCLUDED.disabled_reason")
                .execute(Tuple.of(clientId, url, reason))
                .replaceWithVoid();
    }

    /** Why the client's endpoint is disabled, or a null item while it is not. */
    public Uni<String> disabledReason(UUID clientId, String url) {
        return pool.preparedQuery("SELECT disabled_reason FROM webhook_endpoint WHERE client_id = $1 AND url = $2")
                .execute(Tuple.of(clientId, url))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getString(0) : null);
    }

    public Uni<Void> enableEndpoint(UUID clientId, String url) {
        return pool.preparedQuery("DELETE FROM webhook_endpoint WHERE client_id = $1 AND url = $2")
                .execute(Tuple.of(clientId, url))
                .replaceWithVoid();
    }

    /** Every disabled endpoint, as {@code clientId + " " + url}. */
    public Uni<Set<String>> disabledEndpoints() {
        return pool.query("SELECT client_id, url FROM webhook_endpoint").execute()
                .map(rows -> {
                    Set<String> keys = new HashSet<>();
                    rows.forEach(row -> keys.add(endpointKey(row.getUUID("client_id"), row.getString("url"))));
                    return keys;
                });
    }

    public static String endpointKey(UUID clientId, String url) {
        return clientId + " " + url;
    }
}
