package io.pmedia.notifier.repository;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Usage counters per vendor, day and metric (docs/usage.md). Amounts are added in one statement together with the
 * keys of the events they come from: an event counted once is never counted again, whichever replica or redelivery
 * brings it back.
 */
@ApplicationScoped
public class UsageStore {

    /** An amount of one metric from one event (its key), for one vendor on one UTC day. */
    public record Increment(UUID eventKey, UUID clientId, LocalDate day, String metric, double amount) {
    }

    /** A metric's sum over a period (a day, or a month starting on {@code period}) for one vendor. */
    public record Total(UUID clientId, LocalDate period, String metric, double amount) {
    }

    /**
     * Adds the increments of the events not counted before. An event's rows arrive together (one event, one key); a
     * key twice in the input (a record redelivered within one poll) counts once.
     */
    private static final String ADD = """
            WITH input AS (
                SELECT DISTINCT ON (event_key, metric) *
                  FROM UNNEST($1::uuid[], $2::uuid[], $3::date[], $4::text[], $5::float8[])
                       AS i(event_key, client_id, day, metric, amount)),
            fresh AS (
                INSERT INTO usage_event (event_key)
                SELECT DISTINCT event_key FROM input
                ON CONFLICT DO NOTHING
                RETURNING event_key)
            INSERT INTO usage_counter (client_id, day, metric, amount)
            SELECT i.client_id, i.day, i.metric, sum(i.amount)
              FROM input i JOIN fresh f ON f.event_key = i.event_key
             GROUP BY 1, 2, 3
             ORDER BY 1, 2, 3
            ON CONFLICT (client_id, day, metric) DO UPDATE SET amount = usage_counter.amount + EXCLUDED.amount
            """;

    /** Sums of one vendor ({@code $1}, or every vendor when null) in {@code [$2, $3)}, per day or month. */
    private static final String TOTALS = """
            SELECT client_id, CAST(date_trunc($4, day) AS date) AS period, metric, sum(amount) AS amount
              FROM usage_counter
             WHERE ($1::uuid IS NULL OR client_id = $1) AND day >= $2 AND day < $3
             GROUP BY 1, 2, 3
             ORDER BY 1, 2, 3
            """;

    /** Keys of events counted longer ago than any redelivery comes back. */
    private static final String FORGET = """
            DELETE FROM usage_event WHERE counted_at < now() - $1::bigint * interval '1 second'
            """;

    private final Pool pool;

    public UsageStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> add(List<Increment> increments) {
        if (increments.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = increments.size();
        UUID[] keys = new UUID[n];
        UUID[] clients = new UUID[n];
        LocalDate[] days = new LocalDate[n];
        String[] metrics = new String[n];
        Double[] amounts = new Double[n];
        for (int i = 0; i < n; i++) {
            Increment increment = increments.get(i);
            keys[i] = increment.eventKey();
            clients[i] = increment.clientId();
            days[i] = increment.day();
            metrics[i] = increment.metric();
            amounts[i] = increment.amount();
        }
        return pool.preparedQuery(ADD).execute(Tuple.from(new Object[]{keys, clients, days, metrics, amounts}))
                .replaceWithVoid();
    }

    /** The sums per vendor, period and metric; {@code clientId} null: every vendor. */
    public Uni<List<Total>> totals(UUID clientId, LocalDate from, LocalDate to, boolean monthly) {
        return pool.preparedQuery(TOTALS).execute(Tuple.of(clientId, from, to, monthly ? "month" : "day"))
                .map(rows -> {
                    List<Total> totals = new ArrayList<>();
                    rows.forEach(row -> totals.add(new Total(row.getUUID("client_id"), row.getLocalDate("period"),
                            row.getString("metric"), row.getDouble("amount"))));
                    return totals;
                });
    }

    /** Forgets the keys of events counted more than {@code keep} ago; how many. */
    public Uni<Integer> forget(Duration keep) {
        return pool.preparedQuery(FORGET).execute(Tuple.of(keep.toSeconds())).map(rows -> rows.rowCount());
    }
}
