package io.pmedia.common.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The outbox's SQL (reactive pg client): the relay's lease, the pending rows in id order, and their removal once
 * the broker has them. Every statement is a short transaction of its own.
 */
@ApplicationScoped
public class OutboxStore {

    /** Takes the lease when it is free, has run out, or is already this holder's; no row when another holds it. */
    private static final String TAKE_LEASE = """
            UPDATE outbox_relay_lease
               SET holder = $1, held_until = now() + $2::bigint * interval '1 millisecond'
             WHERE name = 'relay' AND (holder IS NULL OR held_until < now() OR holder = $1)
            RETURNING holder
            """;

    private static final String PENDING = """
            SELECT id, topic, record_key, payload, trace_parent FROM outbox_event
             ORDER BY id
             LIMIT $1
            """;

    private static final String DELETE_SENT = """
            DELETE FROM outbox_event WHERE id = ANY($1)
            """;

    private static final String RELEASE_LEASE = """
            UPDATE outbox_relay_lease
               SET holder = NULL, held_until = NULL
             WHERE name = 'relay' AND holder = $1
            """;

    private static final String OLDEST_AGE = """
            SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 FROM outbox_event
            """;

    private final Pool pool;

    public OutboxStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Takes the lease for {@code lease} and reads up to {@code limit} pending rows, oldest first, in one short
     * transaction. Empty when another relay holds the lease or nothing is pending (the lease is then given back).
     */
    public Uni<List<OutboxMessage>> claim(UUID holder, Duration lease, int limit) {
        return pool.withTransaction(conn -> conn.preparedQuery(TAKE_LEASE)
                .execute(Tuple.of(holder, lease.toMillis()))
                .flatMap(taken -> {
                    if (taken.rowCount() == 0) {
                        return Uni.createFrom().item(List.<OutboxMessage>of());
                    }
                    return conn.preparedQuery(PENDING).execute(Tuple.of(limit)).flatMap(rows -> {
                        List<OutboxMessage> pending = new ArrayList<>();
                        rows.forEach(row -> pending.add(new OutboxMessage(row.getLong("id"), row.getString("topic"),
                                row.getString("record_key"), row.getString("payload"),
                                row.getString("trace_parent"))));
                        return pending.isEmpty()
                                ? conn.preparedQuery(RELEASE_LEASE).execute(Tuple.of(holder)).replaceWith(pending)
                                : Uni.createFrom().item(pending);
                    });
                }));
    }

    /** Removes the rows the broker acknowledged and gives the lease back, in one short transaction. */
    public Uni<Void> markSent(UUID holder, List<OutboxMessage> sent) {
        Long[] ids = sent.stream().map(OutboxMessage::id).toArray(Long[]::new);
        return pool.withTransaction(conn -> conn.preparedQuery(DELETE_SENT).execute(Tuple.of(ids))
                .flatMap(deleted -> conn.preparedQuery(RELEASE_LEASE).execute(Tuple.of(holder))))
                .replaceWithVoid();
    }

    /** Gives the lease back after a batch that did not go out (its rows stay, to be sent again). */
    /** Seconds the oldest pending event has waited; 0 when none waits. */
    public Uni<Double> oldestAgeSeconds() {
        return pool.query(OLDEST_AGE).execute().map(rows -> rows.iterator().next().getDouble(0));
    }

    public Uni<Void> release(UUID holder) {
        return pool.preparedQuery(RELEASE_LEASE).execute(Tuple.of(holder)).replaceWithVoid();
    }
}
