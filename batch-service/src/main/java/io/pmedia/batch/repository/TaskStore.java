package io.pmedia.batch.repository;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.batch.BatchTask;
import io.pmedia.common.db.NativeSql;
import io.pmedia.common.paging.Keyset;
import io.pmedia.common.repository.KeysetQuery;
import io.pmedia.events.BatchStatus;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Batch tasks in PostgreSQL, as native SQL in the caller's reactive session and transaction (so a change and its
 * outbox event commit together). A task is changed as an entity only when it was read {@code FOR UPDATE} in the same
 * transaction; counters move with single statements. Long steps (reading the file, writing the output) hold a lease
 * instead of a lock: their writes check the lease token.
 */
@ApplicationScoped
public class TaskStore {

    /** A campaign window that has not opened holds the task back (docs/campaigns.md). */
    private static final String NOT_WAITING = """
            NOT EXISTS (SELECT 1 FROM campaign_window c
                         WHERE c.client_id = t.client_id AND c.campaign_id = t.campaign_id AND c.status = 'SCHEDULED')
            """;

    /** Key of the advisory lock of submission ("pmedia-batch-submit"). */
    private static final long SUBMIT_LOCK_KEY = 0x706d_6261_7463_6873L;
    /** Key of the advisory lock of on-view admission ("pmedia-onview-admit", folded). */
    private static final long ADMIT_LOCK_KEY = 0x706d_6f6e_7669_6577L;

    /** One replica submits at a time, so the window holds across replicas; the lock ends with the transaction. */
    private static final String SUBMIT_LOCK = """
            SELECT pg_try_advisory_xact_lock(?1)
            """;

    private static final String OWNED = """
            SELECT * FROM batch_task WHERE id = ?1 AND client_id = ?2
            """;

    /** The task of a client that is still reading or rendering one file for one campaign, if any. */
    private static final String ACTIVE_FOR_FILE = """
            SELECT * FROM batch_task
             WHERE client_id = ?1 AND campaign_id = ?2 AND file_path = ?3 AND status IN ('PENDING', 'IN PROGRESS')
             ORDER BY created_at DESC LIMIT 1
            """;

    private static final String LOCK_OWNED = """
            SELECT * FROM batch_task WHERE id = ?1 AND client_id = ?2 FOR UPDATE
            """;

    /**
     * Tasks still running whose campaign has ended. A task rendered on view whose file has been read is not stopped: its
     * links are decided and only its output file is still to be written (they render for their retention whatever
     * the campaign; docs/decisions.md, "A campaign rendered on view").
     */
    private static final String LOCK_CAMPAIGN_ENDED = """
            SELECT t.* FROM batch_task t
             WHERE (t.status = 'PENDING' OR (t.status = 'IN PROGRESS' AND t.render <> 'on-view'))
               AND EXISTS (SELECT 1 FROM campaign_window c
                            WHERE c.client_id = t.client_id AND c.campaign_id = t.campaign_id AND c.status = 'ENDED')
             LIMIT ?1 FOR UPDATE OF t SKIP LOCKED
            """;

    /**
     * The next file to read: a pending task whose window is open and that no replica is reading. Its render is fixed
     * here, as its rows are stored by it: its own, else its campaign's as known now, else now (docs/batch.md, "A
     * campaign rendered on view").
     */
    private static final String LEASE_NEXT_TO_READ = """
            UPDATE batch_task SET lease_token = ?1, lease_until = now() + CAST(?2 AS bigint) * interval '1 millisecond',
                   render = COALESCE(render_asked, (SELECT c.render FROM campaign_window c
                                                     WHERE c.client_id = batch_task.client_id
                                                       AND c.campaign_id = batch_task.campaign_id), 'now')
             WHERE id = (SELECT t.id FROM batch_task t
                          WHERE t.status = 'PENDING' AND (t.lease_until IS NULL OR t.lease_until < now()) AND
            """ + NOT_WAITING + """
                          ORDER BY t.priority DESC, t.due_at, t.created_at LIMIT 1 FOR UPDATE OF t SKIP LOCKED)
            RETURNING *
            """;

    /**
     * The next output to write: a task that ended with rows (cancelled, campaign over) or whose rows have all come
     * back, that no replica is writing, and whose renders still running (if any) have come back.
     */
    private static final String LEASE_NEXT_OUTPUT = """
            UPDATE batch_task SET lease_token = ?1, lease_until = now() + CAST(?2 AS bigint) * interval '1 millisecond'
             WHERE id = (SELECT t.id FROM batch_task t
                          WHERE (t.output_due OR (t.status = 'IN PROGRESS' AND t.processed >= t.total_count))
                            AND (t.lease_until IS NULL OR t.lease_until < now())
                            AND NOT EXISTS (SELECT 1 FROM batch_row r WHERE r.task_id = t.id AND r.status = 'SUBMITTED')
                          ORDER BY t.updated_at LIMIT 1 FOR UPDATE OF t SKIP LOCKED)
            RETURNING *
            """;

    private static final String LOCK_LEASED = """
            SELECT * FROM batch_task WHERE id = ?1 AND lease_token = ?2 FOR UPDATE
            """;

    private static final String RELEASE = """
            UPDATE batch_task SET lease_token = NULL, lease_until = NULL WHERE id = ?1 AND lease_token = ?2
            """;

    /**
     * The tasks whose rows may be submitted now, with what the scheduler weighs: rows in flight (through the partial
     * index of submitted rows) and rows waiting (neither answered nor in flight). The tasks are few: those running.
     */
    private static final String RUNNABLE = """
            SELECT id, client_id, priority, due_at, created_at, in_flight, total_count - processed - in_flight
              FROM (SELECT t.*, (SELECT count(*) FROM batch_row r
                                  WHERE r.task_id = t.id AND r.status = 'SUBMITTED') AS in_flight
                      FROM batch_task t
                     WHERE t.status = 'IN PROGRESS' AND NOT t.output_due AND t.processed < t.total_count AND
            """ + NOT_WAITING + """
                   ) running
            """;

    /**
     * The campaign's pending tasks that do not say render take the render of its latest event, until their file is
     * read (a task being read keeps what its lease fixed).
     */
    private static final String FOLLOW_CAMPAIGN = """
            UPDATE batch_task t SET render = c.render, updated_at = now()
              FROM campaign_window c
             WHERE t.client_id = ?1 AND t.campaign_id = ?2 AND t.status = 'PENDING' AND t.render_asked IS NULL
               AND t.lease_token IS NULL AND c.client_id = t.client_id AND c.campaign_id = t.campaign_id
               AND t.render <> c.render
            """;

    /** A result applied: the task's counters move. */
    private static final String COUNT_ANSWER = """
            UPDATE batch_task SET processed = processed + 1, succeeded = succeeded + ?2, updated_at = now()
             WHERE id = ?1
            """;

    /** A row's link opened for the first time. */
    private static final String COUNT_VIEWED = """
            UPDATE batch_task SET viewed = viewed + 1 WHERE id = ?1
            """;

    /** The result of an on-view render. */
    private static final String COUNT_RENDERED = """
            UPDATE batch_task SET rendered = rendered + ?2, render_failed = render_failed + 1 - ?2 WHERE id = ?1
            """;

    /** Running tasks whose progress moved since their last event, at most once per {@code progress-every}. */
    private static final String LOCK_PROGRESS_DUE = """
            SELECT * FROM batch_task
             WHERE status = 'IN PROGRESS' AND processed <> reported_processed
               AND (reported_at IS NULL OR reported_at < now() - CAST(?1 AS bigint) * interval '1 millisecond')
             LIMIT ?2 FOR UPDATE SKIP LOCKED
            """;

    /** Tasks whose videos' retention has ended and whose rows' objects are still kept, the longest due first. */
    private static final String LOCK_EXPIRED = """
            SELECT * FROM batch_task WHERE expires_at <= now() AND videos_deleted_at IS NULL
             ORDER BY expires_at LIMIT ?1 FOR UPDATE SKIP LOCKED
            """;

    private static final String REPORTED = """
            UPDATE batch_task SET reported_at = now(), reported_processed = processed WHERE id = ?1
            """;

    /** One of the tasks the scheduler may give rows to (see {@link #runnable()}). */
    /** GET /media/tasks: the client's tasks, newest first, by status, campaign and template when given. */
    private static final String PAGE = KeysetQuery.of("batch_task", KeysetQuery.Filter.text("status"),
            KeysetQuery.Filter.text("campaign_id"), KeysetQuery.Filter.uuid("template_id"));

    /** One of the tasks the scheduler may give rows to (see {@link #runnable()}). */
    public record Runnable(UUID taskId, UUID clientId, int priority, Instant dueAt, Instant createdAt,
            int inFlight, int pending) {
    }

    /** Up to {@code limit} of the client's tasks below the keyset, newest first; filters when given. */
    public Uni<List<BatchTask>> page(UUID clientId, Keyset keyset, BatchStatus status, String campaignId,
            UUID templateId, int limit) {
        return NativeSql.list(BatchTask.class, PAGE, KeysetQuery.parameters(clientId, keyset, limit,
                status == null ? null : status.wire(), campaignId, templateId));
    }

    /** One replica admits on-view renders at a time, so the bound holds across replicas (transaction-long). */
    public Uni<Boolean> tryAdmitLock() {
        return NativeSql.one(Boolean.class, SUBMIT_LOCK, ADMIT_LOCK_KEY);
    }

    /** Takes the submission lock for this transaction; false when another replica holds it. */
    public Uni<Boolean> trySubmitLock() {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(SUBMIT_LOCK, Boolean.class)
                .setParameter(1, SUBMIT_LOCK_KEY).getSingleResult());
    }

    public Uni<BatchTask> owned(UUID id, UUID clientId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(OWNED, BatchTask.class)
                .setParameter(1, id).setParameter(2, clientId).getSingleResultOrNull());
    }

    /** The client's unfinished task of {@code filePath} (s3 path) in {@code campaignId}, or a null item. */
    public Uni<BatchTask> activeForFile(UUID clientId, String campaignId, String filePath) {
        return NativeSql.one(BatchTask.class, ACTIVE_FOR_FILE, clientId, campaignId, filePath);
    }

    /** The client's own task, locked for the transaction; null when it has none of that id. */
    public Uni<BatchTask> lockOwned(UUID id, UUID clientId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LOCK_OWNED, BatchTask.class)
                .setParameter(1, id).setParameter(2, clientId).getSingleResultOrNull());
    }

    public Uni<List<BatchTask>> lockCampaignEnded(int limit) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LOCK_CAMPAIGN_ENDED, BatchTask.class)
                .setParameter(1, limit).getResultList());
    }

    /** Leases the next pending task to read, highest priority then earliest deadline first; null when none. */
    public Uni<BatchTask> leaseNextToRead(UUID token, Duration lease) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LEASE_NEXT_TO_READ, BatchTask.class)
                .setParameter(1, token).setParameter(2, lease.toMillis()).getSingleResultOrNull());
    }

    /** Leases the next task whose output file is to be written; null when none. */
    public Uni<BatchTask> leaseNextOutput(UUID token, Duration lease) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LEASE_NEXT_OUTPUT, BatchTask.class)
                .setParameter(1, token).setParameter(2, lease.toMillis()).getSingleResultOrNull());
    }

    /** The task, locked, if this lease still holds it; null when another replica took it over. */
    public Uni<BatchTask> lockLeased(UUID id, UUID token) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LOCK_LEASED, BatchTask.class)
                .setParameter(1, id).setParameter(2, token).getSingleResultOrNull());
    }

    public Uni<Integer> release(UUID id, UUID token) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(RELEASE)
                .setParameter(1, id).setParameter(2, token).executeUpdate());
    }

    public Uni<List<Runnable>> runnable() {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(RUNNABLE, Object[].class)
                .getResultList())
                .map(rows -> rows.stream().map(TaskStore::runnable).toList());
    }

    /** The campaign's pending tasks that follow its render take its latest one; how many changed. */
    public Uni<Integer> followCampaign(UUID clientId, String campaignId) {
        return NativeSql.update(FOLLOW_CAMPAIGN, clientId, campaignId);
    }

    public Uni<Integer> countAnswer(UUID taskId, boolean succeeded) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(COUNT_ANSWER)
                .setParameter(1, taskId).setParameter(2, succeeded ? 1 : 0).executeUpdate());
    }

    public Uni<Integer> countViewed(UUID taskId) {
        return NativeSql.update(COUNT_VIEWED, taskId);
    }

    public Uni<Integer> countRendered(UUID taskId, boolean succeeded) {
        return NativeSql.update(COUNT_RENDERED, taskId, succeeded ? 1 : 0);
    }

    public Uni<List<BatchTask>> lockProgressDue(Duration every, int limit) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LOCK_PROGRESS_DUE, BatchTask.class)
                .setParameter(1, every.toMillis()).setParameter(2, limit).getResultList());
    }

    public Uni<List<BatchTask>> lockExpired(int limit) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LOCK_EXPIRED, BatchTask.class)
                .setParameter(1, limit).getResultList());
    }

    /** Its status event just went out: the next progress event waits for {@code progress-every} and new answers. */
    public Uni<Integer> reported(UUID taskId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(REPORTED)
                .setParameter(1, taskId).executeUpdate());
    }

    /** {@link #RUNNABLE}'s columns, in its SELECT order. */
    private static Runnable runnable(Object[] row) {
        return new Runnable((UUID) row[0], (UUID) row[1], ((Number) row[2]).intValue(), instant(row[3]),
                instant(row[4]), ((Number) row[5]).intValue(), ((Number) row[6]).intValue());
    }

    static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime time) {
            return time.toInstant();
        }
        if (value instanceof Timestamp time) {
            return time.toInstant();
        }
        throw new IllegalStateException("not a time: " + value);
    }
}
