package io.pmedia.gateway.repository;

import java.time.Duration;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/** The gateway replicas that are alive: each renews its own row; a row not renewed for a while is a gone replica. */
@ApplicationScoped
public class GatewayReplicas {

    /** Renews this replica's row and counts the replicas seen within {@code $2} milliseconds (itself included). */
    private static final String RENEW_AND_COUNT = """
            WITH renewed AS (
                INSERT INTO gateway_replica (id, seen_at) VALUES ($1, now())
                ON CONFLICT (id) DO UPDATE SET seen_at = now()
                RETURNING id)
            SELECT 1 + count(*) AS alive FROM gateway_replica
             WHERE seen_at > now() - $2::bigint * interval '1 millisecond'
               AND id <> (SELECT id FROM renewed)
            """;

    /** Rows of replicas gone for long: kept a while for nothing but forgetting them. */
    private static final String FORGET_GONE = """
            DELETE FROM gateway_replica WHERE seen_at < now() - interval '1 hour'
            """;

    /** This replica's row, on shutdown: the others take over its share at their next renewal. */
    private static final String LEAVE = """
            DELETE FROM gateway_replica WHERE id = $1
            """;

    private final Pool pool;

    public GatewayReplicas(Pool pool) {
        this.pool = pool;
    }

    public Uni<Integer> renewAndCount(UUID self, Duration aliveWithin) {
        return pool.preparedQuery(RENEW_AND_COUNT).execute(Tuple.of(self, aliveWithin.toMillis()))
                .map(rows -> rows.iterator().next().getLong("alive").intValue());
    }

    public Uni<Void> forgetGone() {
        return pool.query(FORGET_GONE).execute().replaceWithVoid();
    }

    public Uni<Void> leave(UUID self) {
        return pool.preparedQuery(LEAVE).execute(Tuple.of(self)).replaceWithVoid();
    }
}
