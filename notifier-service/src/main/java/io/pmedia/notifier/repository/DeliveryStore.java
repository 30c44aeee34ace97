package io.pmedia.notifier.repository;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.notifier.AttemptOutcome;
import io.pmedia.notifier.DeliveryAttempt;
import io.pmedia.notifier.DeliveryAttempt.AttemptTrigger;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.WebhookDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Deliveries, attempts and disabled endpoints in PostgreSQL, with the reactive SQL client: every step of the hot path
 * (insert a batch, claim due rows, record an attempt) is one statement and one round trip. Writes that belong to a
 * claim are conditional on its lease token.
 */
@ApplicationScoped
public class DeliveryStore {

    /**
     * Takes a batch of new deliveries; duplicates of an event (a redelivered record), or a second delivery of the same
     * webhook-id, insert nothing and return nothing.
     */
    private static final String INSERT_NEW = """
            INSERT INTO webhook_delivery (webhook_id, event_id, kind, client_id, subject, payload, status,
                                          next_attempt_at, lease_owner, lease_until, event_time, trace_parent)
            SELECT w, e, k, c, s, p, 'PENDING', now() + $6::bigint * interval '1 millisecond', $7,
                   now() + $6::bigint * interval '1 millisecond', t, tp
              FROM UNNEST($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $8::timestamptz[], $9::text[],
                          $10::text[])
                   AS u(w, e, c, s, p, t, tp, k)
            ON CONFLICT DO NOTHING
            RETURNING webhook_id, event_id, client_id, kind, payload, attempts, trace_parent, recover_from
            """;

    /**
     * Claims due rows. The lease is also written into next_attempt_at: a claimed row comes due again exactly when its
     * lease runs out, so the poll needs no other condition and a crashed replica's work is taken over then.
     */
    private static final String CLAIM_DUE = """
            UPDATE webhook_delivery d
               SET lease_owner = $1, lease_until = now() + $2::bigint * interval '1 millisecond',
                   next_attempt_at = now() + $2::bigint * interval '1 millisecond'
              FROM (SELECT webhook_id FROM webhook_delivery
                     WHERE status = 'PENDING' AND next_attempt_at <= now()
                     ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED) due
             WHERE d.webhook_id = due.webhook_id
            RETURNING d.webhook_id, d.event_id, d.client_id, d.kind, d.payload, d.attempts, d.trace_parent,
                      d.recover_from
            """;

    private static final String RENEW = """
            UPDATE webhook_delivery
               SET lease_until = now() + $3::bigint * interval '1 millisecond',
                   next_attempt_at = now() + $3::bigint * interval '1 millisecond'
             WHERE webhook_id = $1 AND lease_owner = $2 AND status = 'PENDING'
            """;

    /** Gives a claimed delivery back without using an attempt (gateway unreachable, queue full, shutting down). */
    private static final String RELEASE = """
            UPDATE webhook_delivery
               SET next_attempt_at = now() + $3::bigint * interval '1 millisecond', lease_owner = NULL, lease_until = NULL,
                   last_error = COALESCE($4, last_error), updated_at = now()
             WHERE webhook_id = $1 AND lease_owner = $2 AND status = 'PENDING'
            """;

    /** Ends a claimed delivery without an attempt (no webhook-url, client gone, endpoint disabled, unsubscribed). */
    private static final String FINISH = """
            UPDATE webhook_delivery
               SET status = $3, last_error = $4, url = COALESCE($5, url), next_attempt_at = NULL,
                   lease_owner = NULL, lease_until = NULL, recover_from = NULL, updated_at = now()
             WHERE webhook_id = $1 AND lease_owner = $2 AND status = 'PENDING'
            """;

    /**
     * The webhook usage of a statement's attempts (docs/usage.md), as its last CTE over a CTE {@code counted(client_id,
     * delivered, ended_failed)} with one row per attempt: every attempt, each success, and each delivery the attempt
     * gave up on, added to the client's counters of the day in the same statement as the attempts.
     */
    private static final String COUNT_USAGE = """
            u AS (
                INSERT INTO usage_counter (client_id, day, metric, amount)
                SELECT c.client_id, CAST(timezone('UTC', now()) AS date), m.metric, count(*)
                  FROM counted c
                 CROSS JOIN LATERAL (VALUES ('webhook-attempts'),
                         (CASE WHEN c.delivered THEN 'webhook-delivered'
                               WHEN c.ended_failed THEN 'webhook-failed' END)) AS m(metric)
                 WHERE m.metric IS NOT NULL
                 GROUP BY 1, 2, 3
                 ORDER BY 1, 2, 3
                ON CONFLICT (client_id, day, metric) DO UPDATE SET amount = usage_counter.amount + EXCLUDED.amount)
            """;

    /**
     * Records a scheduled attempt and moves the delivery on, in one statement: the attempt row is written only when
     * the claim still holds the lease. Run by {@link #recordExhausted} inside the Hibernate transaction that also
     * writes the dead-letter event, hence the {@code ?n} placeholders and plain casts (Hibernate's native SQL).
     */
    private static final String RECORD_ATTEMPT = """
            WITH d AS (
                UPDATE webhook_delivery
                   SET status = CAST(?3 AS text), attempts = attempts + 1, url = CAST(?4 AS text),
                       last_status = CAST(?5 AS integer), last_error = CAST(?6 AS text),
                       next_attempt_at = CASE WHEN CAST(?3 AS text) = 'PENDING'
                                              THEN now() + CAST(?7 AS bigint) * interval '1 millisecond' END,
                       lease_owner = NULL, lease_until = NULL, recover_from = NULL, updated_at = now()
                 WHERE webhook_id = CAST(?1 AS text) AND lease_owner = CAST(?2 AS uuid) AND status = 'PENDING'
                RETURNING webhook_id, attempts, client_id),
            counted AS (
                SELECT client_id, false AS delivered, CAST(?3 AS text) IN ('FAILED', 'EXHAUSTED') AS ended_failed
                  FROM d),
            """ + COUNT_USAGE + """
            INSERT INTO webhook_attempt (webhook_id, attempt, trigger, url, attempted_at, status_code, latency_ms,
                                         error, response_body)
            SELECT webhook_id, attempts, CAST(?8 AS text), CAST(?4 AS text), CAST(?9 AS timestamptz),
                   CAST(?5 AS integer), CAST(?10 AS integer), CAST(?6 AS text), CAST(?11 AS text)
              FROM d
            """;

    /** {@link #RECORD_ATTEMPT} for many claims in one statement: what {@link AttemptRecorder} flushes. */
    private static final String RECORD_ATTEMPTS = """
            WITH input AS (
                SELECT * FROM UNNEST($1::text[], $2::uuid[], $3::text[], $4::text[], $5::int[], $6::text[],
                                     $7::bigint[], $8::text[], $9::timestamptz[], $10::int[], $11::text[])
                    AS i(webhook_id, lease_owner, status, url, status_code, error, retry_ms, trigger, attempted_at,
                         latency_ms, response_body)),
            d AS (
                UPDATE webhook_delivery w
                   SET status = i.status, attempts = w.attempts + 1, url = i.url, last_status = i.status_code,
                       last_error = i.error,
                       next_attempt_at = CASE WHEN i.status = 'PENDING'
                                              THEN now() + i.retry_ms * interval '1 millisecond' END,
                       lease_owner = NULL, lease_until = NULL, recover_from = NULL, updated_at = now()
                  FROM input i
                 WHERE w.webhook_id = i.webhook_id AND w.lease_owner = i.lease_owner AND w.status = 'PENDING'
                RETURNING w.webhook_id, w.attempts, w.client_id, i.status, i.trigger, i.url, i.attempted_at,
                          i.status_code, i.latency_ms, i.error, i.response_body),
            counted AS (
                SELECT client_id, status = 'DELIVERED' AS delivered,
                       trigger = 'scheduled' AND status IN ('FAILED', 'EXHAUSTED') AS ended_failed
                  FROM d),
            """ + COUNT_USAGE + """
            INSERT INTO webhook_attempt (webhook_id, attempt, trigger, url, attempted_at, status_code, latency_ms,
                                         error, response_body)
            SELECT webhook_id, attempts, trigger, url, attempted_at, status_code, latency_ms, error, response_body
              FROM d
            RETURNING webhook_id
            """;

    /** A replay: one more attempt of a finished delivery; success makes it DELIVERED, failure leaves it as it was. */
    private static final String RECORD_REPLAY = """
            WITH d AS (
                UPDATE webhook_delivery
                   SET attempts = attempts + 1, url = $2, last_status = $3, last_error = $4,
                       status = CASE WHEN $5 THEN 'DELIVERED' ELSE status END, updated_at = now()
                 WHERE webhook_id = $1 AND client_id = $9 AND status <> 'PENDING'
                RETURNING webhook_id, attempts, client_id),
            counted AS (SELECT client_id, $5 AS delivered, false AS ended_failed FROM d),
            """ + COUNT_USAGE + """
            INSERT INTO webhook_attempt (webhook_id, attempt, trigger, url, attempted_at, status_code, latency_ms,
                                         error, response_body)
            SELECT webhook_id, attempts, 'replay', $2, $6, $3, $7, $4, $8 FROM d
            RETURNING attempt
            """;

    private static final String INSERT_TEST = """
            WITH d AS (
                INSERT INTO webhook_delivery (webhook_id, event_id, kind, client_id, payload, status, attempts, url,
                                              last_status, last_error)
                VALUES ($1, $2, 'test', $3, $4, $5, 1, $6, $7, $8)
                RETURNING webhook_id, client_id, status),
            counted AS (SELECT client_id, status = 'DELIVERED' AS delivered, status = 'FAILED' AS ended_failed FROM d),
            """ + COUNT_USAGE + """
            INSERT INTO webhook_attempt (webhook_id, attempt, trigger, url, attempted_at, status_code, latency_ms,
                                         error, response_body)
            SELECT webhook_id, 1, 'test', $6, $9, $7, $10, $8, $11 FROM d
            """;
    /**
     * A page of one client's deliveries, newest first, before the keyset bound {@code ($2, $3)}, from {@code $4} on;
     * status, kind and subject filter when given.
     */
    private static final String PAGE = """
            SELECT * FROM webhook_delivery
             WHERE client_id = $1
               AND (created_at, webhook_id) < ($2, $3)
               AND created_at >= $4
               AND ($5::text IS NULL OR status = $5)
               AND ($6::text IS NULL OR kind = $6)
               AND ($7::text IS NULL OR subject = $7)
             ORDER BY created_at DESC, webhook_id DESC
             LIMIT $8
            """;

    /** The same page over every client's deliveries (the operator's dead letters); {@code $1} is null. */
    private static final String PAGE_ALL = PAGE.replace("WHERE client_id = $1", "WHERE $1::uuid IS NULL");

    /**
     * Recovery: every FAILED or EXHAUSTED delivery of the client made in {@code [$2, $3)} goes back on the schedule
     * for one attempt now, with the same webhook-id; {@code recover_from} keeps what it was.
     */
    private static final String RECOVER = """
            UPDATE webhook_delivery
               SET recover_from = status, status = 'PENDING', next_attempt_at = now(), updated_at = now()
             WHERE client_id = $1 AND created_at >= $2 AND created_at < $3
               AND status IN ('FAILED', 'EXHAUSTED') AND kind <> 'test'
            """;

    /** Earlier than any delivery. */
    private static final OffsetDateTime BEGINNING = OffsetDateTime.parse("1970-01-01T00:00:00Z");

    private final Pool pool;

    public DeliveryStore(Pool pool) {
        this.pool = pool;
    }

    /** Inserts new deliveries leased to the caller; returns the claims of those that were really new. */
    public Uni<List<Claim>> insertNew(List<NewDelivery> deliveries, Duration lease) {
        if (deliveries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        UUID owner = UUID.randomUUID();
        int n = deliveries.size();
        String[] ids = new String[n];
        UUID[] events = new UUID[n];
        UUID[] clients = new UUID[n];
        String[] subjects = new String[n];
        String[] payloads = new String[n];
        OffsetDateTime[] times = new OffsetDateTime[n];
        String[] traces = new String[n];
        String[] kinds = new String[n];
        for (int i = 0; i < n; i++) {
            NewDelivery d = deliveries.get(i);
            kinds[i] = d.kind().wire();
            ids[i] = d.webhookId();
            events[i] = d.eventId();
            clients[i] = d.clientId();
            subjects[i] = d.subject();
            payloads[i] = d.payload();
            times[i] = offset(d.eventTime());
            traces[i] = d.traceParent();
        }
        long expires = System.nanoTime() + lease.toNanos();
        return pool.preparedQuery(INSERT_NEW)
                .execute(Tuple.from(List.of(ids, events, clients, subjects, payloads, lease.toMillis(), owner, times,
                        traces, kinds)))
                .map(rows -> claims(rows, owner, expires));
    }

    /** Claims up to {@code limit} due deliveries for this replica. Safe with any number of replicas. */
    public Uni<List<Claim>> claimDue(int limit, Duration lease) {
        UUID owner = UUID.randomUUID();
        long expires = System.nanoTime() + lease.toNanos();
        return pool.preparedQuery(CLAIM_DUE).execute(Tuple.of(owner, lease.toMillis(), (long) limit))
                .map(rows -> claims(rows, owner, expires));
    }

    /** Extends a claim's lease; false when the claim lost it (another replica took the delivery over). */
    public Uni<Boolean> renew(Claim claim, Duration lease) {
        return pool.preparedQuery(RENEW).execute(Tuple.of(claim.webhookId(), claim.leaseOwner(), lease.toMillis()))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<Void> release(Claim claim, Duration delay, String reason) {
        return pool.preparedQuery(RELEASE)
                .execute(Tuple.of(claim.webhookId(), claim.leaseOwner(), delay.toMillis(), reason))
                .replaceWithVoid();
    }

    public Uni<Void> finish(Claim claim, DeliveryStatus status, String reason, String url) {
        return pool.preparedQuery(FINISH)
                .execute(Tuple.of(claim.webhookId(), claim.leaseOwner(), status.name(), reason, url))
                .replaceWithVoid();
    }

    /** One scheduled attempt to record with the delivery's next state. */
    public record AttemptWrite(Claim claim, AttemptRecord attempt, DeliveryStatus next, Duration retryIn) {
    }

    /**
     * Records many scheduled attempts in one statement; returns the webhook ids that were written (a claim that had
     * lost its lease writes nothing).
     */
    public Uni<Set<String>> recordAttempts(List<AttemptWrite> writes) {
        int n = writes.size();
        String[] ids = new String[n];
        UUID[] owners = new UUID[n];
        String[] statuses = new String[n];
        String[] urls = new String[n];
        Integer[] codes = new Integer[n];
        String[] errors = new String[n];
        Long[] retries = new Long[n];
        String[] triggers = new String[n];
        OffsetDateTime[] times = new OffsetDateTime[n];
        Integer[] latencies = new Integer[n];
        String[] bodies = new String[n];
        for (int i = 0; i < n; i++) {
            AttemptWrite write = writes.get(i);
            AttemptOutcome outcome = write.attempt().outcome();
            ids[i] = write.claim().webhookId();
            owners[i] = write.claim().leaseOwner();
            statuses[i] = write.next().name();
            urls[i] = write.attempt().url();
            codes[i] = outcome.statusCode();
            errors[i] = outcome.error();
            retries[i] = write.retryIn() == null ? null : write.retryIn().toMillis();
            triggers[i] = write.attempt().trigger().wire();
            times[i] = offset(write.attempt().attemptedAt());
            latencies[i] = outcome.latencyMillis();
            bodies[i] = outcome.responseBody();
        }
        return pool.preparedQuery(RECORD_ATTEMPTS)
                .execute(Tuple.from(new Object[]{ids, owners, statuses, urls, codes, errors, retries, triggers, times,
                        latencies, bodies}))
                .map(rows -> {
                    Set<String> written = new HashSet<>();
                    rows.forEach(row -> written.add(row.getString("webhook_id")));
                    return written;
                });
    }

    /**
     * Records a claim's last attempt and ends it EXHAUSTED, in the caller's Hibernate transaction (the one that also
     * writes its dead-letter event to the outbox). False when the claim had lost its lease: nothing was written.
     */
    public Uni<Boolean> recordExhausted(Claim claim, AttemptRecord last) {
        AttemptOutcome outcome = last.outcome();
        Object[] parameters = {claim.webhookId(), claim.leaseOwner(), DeliveryStatus.EXHAUSTED.name(), last.url(),
                outcome.statusCode(), outcome.error(), null, last.trigger().wire(), offset(last.attemptedAt()),
                outcome.latencyMillis(), outcome.responseBody()};
        return NativeSql.update(RECORD_ATTEMPT, parameters).map(written -> written > 0);
    }

    /** Records a replay attempt of a finished delivery; returns its attempt number, or null if none was written. */
    public Uni<Integer> recordReplay(UUID clientId, String webhookId, AttemptRecord attempt) {
        AttemptOutcome outcome = attempt.outcome();
        return pool.preparedQuery(RECORD_REPLAY)
                .execute(Tuple.from(new Object[]{webhookId, attempt.url(), outcome.statusCode(), outcome.error(),
                        outcome.delivered(), offset(attempt.attemptedAt()), outcome.latencyMillis(),
                        outcome.responseBody(), clientId}))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getInteger("attempt") : null);
    }

    /** Records a test event a vendor asked for, with its single attempt. */
    public Uni<Void> insertTest(String webhookId, UUID clientId, String payload, AttemptRecord attempt) {
        AttemptOutcome outcome = attempt.outcome();
        DeliveryStatus status = outcome.delivered() ? DeliveryStatus.DELIVERED : DeliveryStatus.FAILED;
        return pool.preparedQuery(INSERT_TEST)
                .execute(Tuple.from(new Object[]{webhookId, UUID.randomUUID(), clientId, payload, status.name(),
                        attempt.url(), outcome.statusCode(), outcome.error(), offset(attempt.attemptedAt()),
                        outcome.latencyMillis(), outcome.responseBody()}))
                .replaceWithVoid();
    }

    /** One client's delivery, or null (another client's delivery is as absent as a missing one). */
    public Uni<WebhookDelivery> find(UUID clientId, String webhookId) {
        return pool.preparedQuery("SELECT * FROM webhook_delivery WHERE webhook_id = $1 AND client_id = $2")
                .execute(Tuple.of(webhookId, clientId))
                .map(rows -> rows.iterator().hasNext() ? delivery(rows.iterator().next()) : null);
    }

    /** The client a delivery belongs to, or null when there is no such delivery (the operator's replay). */
    public Uni<UUID> owner(String webhookId) {
        return pool.preparedQuery("SELECT client_id FROM webhook_delivery WHERE webhook_id = $1")
                .execute(Tuple.of(webhookId))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getUUID(0) : null);
    }

    /** What a page of deliveries is filtered on; null: any. */
    public record Filter(DeliveryStatus status, DeliveryKind kind, String subject, Instant from) {
    }

    /**
     * Up to {@code limit} of one client's deliveries made before the keyset bound (a null id: before every delivery of
     * its time), newest first.
     */
    public Uni<List<WebhookDelivery>> page(UUID clientId, Filter filter, Instant boundTime, String boundId,
            int limit) {
        return pool.preparedQuery(clientId == null ? PAGE_ALL : PAGE)
                .execute(Tuple.from(new Object[]{clientId, offset(boundTime), boundId == null ? "" : boundId,
                        filter.from() == null ? BEGINNING : offset(filter.from()),
                        filter.status() == null ? null : filter.status().name(),
                        filter.kind() == null ? null : filter.kind().wire(), filter.subject(), (long) limit}))
                .map(rows -> {
                    List<WebhookDelivery> page = new ArrayList<>();
                    rows.forEach(row -> page.add(delivery(row)));
                    return page;
                });
    }

    /** Puts the client's failed and exhausted deliveries made in {@code [from, to)} back on the schedule; how many. */
    public Uni<Integer> recover(UUID clientId, Instant from, Instant to) {
        return pool.preparedQuery(RECOVER).execute(Tuple.of(clientId, offset(from), offset(to)))
                .map(RowSet::rowCount);
    }

    /** The attempts of the given deliveries, in attempt order, keyed by webhook id. */
    public Uni<Map<String, List<DeliveryAttempt>>> attemptsOf(List<String> webhookIds) {
        if (webhookIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("SELECT * FROM webhook_attempt WHERE webhook_id = ANY($1) ORDER BY webhook_id,"
                + " attempt")
                .execute(Tuple.of(webhookIds.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<DeliveryAttempt>> byDelivery = new LinkedHashMap<>();
                    rows.forEach(row -> byDelivery.computeIfAbsent(row.getString("webhook_id"),
                            id -> new ArrayList<>()).add(attempt(row)));
                    return byDelivery;
                });
    }

    private static List<Claim> claims(RowSet<Row> rows, UUID owner, long leaseExpiresAtNanos) {
        List<Claim> claims = new ArrayList<>(rows.rowCount());
        for (Row row : rows) {
            claims.add(new Claim(row.getString("webhook_id"), row.getUUID("event_id"), row.getUUID("client_id"),
                    DeliveryKind.fromWire(row.getString("kind")), row.getString("payload"),
                    row.getInteger("attempts"), owner, leaseExpiresAtNanos, row.getString("trace_parent"),
                    row.getString("recover_from") == null
                            ? null
                            : DeliveryStatus.valueOf(row.getString("recover_from"))));
        }
        return claims;
    }

    private static WebhookDelivery delivery(Row row) {
        return new WebhookDelivery(row.getString("webhook_id"), row.getUUID("event_id"),
                DeliveryKind.fromWire(row.getString("kind")), row.getUUID("client_id"), row.getString("subject"),
                row.getString("payload"), DeliveryStatus.valueOf(row.getString("status")),
                row.getInteger("attempts"), row.getString("url"), row.getInteger("last_status"),
                row.getString("last_error"), instant(row.getOffsetDateTime("next_attempt_at")),
                instant(row.getOffsetDateTime("created_at")), instant(row.getOffsetDateTime("updated_at")));
    }

    private static DeliveryAttempt attempt(Row row) {
        return new DeliveryAttempt(row.getInteger("attempt"),
                AttemptTrigger.valueOf(row.getString("trigger").toUpperCase(java.util.Locale.ROOT)),
                row.getString("url"), instant(row.getOffsetDateTime("attempted_at")), row.getInteger("status_code"),
                row.getInteger("latency_ms"), row.getString("error"), row.getString("response_body"));
    }

    static OffsetDateTime offset(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
