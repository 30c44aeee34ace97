package io.pmedia.batch.repository;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.batch.BatchRow;
import io.pmedia.batch.RowStatus;
import io.pmedia.common.db.NativeSql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The rows of batch tasks, as native SQL in the caller's reactive session and transaction. Statuses are
 * {@link RowStatus} wire names; the partial indexes of the migrations name the same literals. A million rows enter
 * through {@link RowStreams} (COPY), never here.
 */
@ApplicationScoped
public class RowStore {

    private static final String IN_FLIGHT = """
            SELECT count(*) FROM batch_row WHERE status = 'SUBMITTED'
            """;

    /**
     * The rows answered lately with a render time, and that time together: how many render slots were busy with batch
     * rows over the period, and how long a render takes (docs/batch.md, "The bound"). Rows rendered on view (on the
     * realtime lane) keep no render time here.
     */
    private static final String RENDERED_SINCE = """
            SELECT count(render_millis), CAST(coalesce(sum(render_millis), 0) AS bigint) FROM batch_row
             WHERE answered_at > now() - CAST(?1 AS bigint) * interval '1 millisecond'
            """;

    /** The next rows of a task to submit, in file order; rows another replica claimed are skipped. */
    private static final String LOCK_PENDING = """
            SELECT task_id, row_no, user_id, input, status, video_key, thumbnail_key, message FROM batch_row
             WHERE task_id = ?1 AND status = 'PENDING'
             ORDER BY row_no LIMIT ?2 FOR UPDATE SKIP LOCKED
            """;

    /**
     * A row's job goes out: clock_timestamp() and the sequence keep the submission order within one transaction (it
     * is the scheduler's decision, and the tests read it).
     */
    private static final String SUBMITTED = """
            UPDATE batch_row SET status = 'SUBMITTED', attempts = attempts + 1, submitted_at = clock_timestamp(),
                   submit_seq = nextval('batch_row_submit_seq')
             WHERE task_id = ?1 AND row_no = ?2
            """;

    /**
     * A result, applied only to a row still waiting for it (results are delivered at least once): the status it was
     * waiting in ({@code SUBMITTED} on the batch lane, {@code RENDERING} on view), or nothing.
     */
    private static final String ANSWER = """
            UPDATE batch_row r SET status = ?3, video_key = ?4, thumbnail_key = ?5, message = ?6, answered_at = now(),
                   render_millis = CASE WHEN was.status = 'SUBMITTED' THEN CAST(?7 AS bigint) END
              FROM (SELECT task_id, row_no, status FROM batch_row
                     WHERE task_id = ?1 AND row_no = ?2 AND status IN ('SUBMITTED', 'RENDERING') FOR UPDATE) was
             WHERE r.task_id = was.task_id AND r.row_no = was.row_no
            RETURNING was.status
            """;

    /**
     * The first open of a row's link (or a viewer's retry after its render failed) claims it, once, whatever the
     * number of opens at the same moment and of replicas: only a row of the client's live on-view task still waiting
     * for its view (or failed on view, with attempts left) moves to {@code VIEWED}. Its attempts after the claim.
     */
    private static final String CLAIM_VIEW = """
            UPDATE batch_row r SET status = 'VIEWED', attempts = r.attempts + 1, submitted_at = clock_timestamp(),
                   message = NULL
              FROM batch_task t
             WHERE r.task_id = ?1 AND r.row_no = ?2 AND t.id = r.task_id AND t.client_id = ?3
               AND t.render = 'on-view' AND t.status = 'COMPLETED' AND t.videos_deleted_at IS NULL
               AND (r.status = 'ON-VIEW'
                    OR (?4 AND r.status = 'FAILURE' AND r.answered_at IS NOT NULL AND r.attempts < ?5))
            RETURNING r.attempts
            """;

    /** On-view renders on the realtime lane now, all tasks together (the admission's count). */
    private static final String RENDERING = """
            SELECT count(*) FROM batch_row WHERE status = 'RENDERING'
            """;

    /** Rows opened and waiting for a place on the realtime lane, first opened first; others' claims skipped. */
    private static final String LOCK_VIEWED = """
            SELECT task_id, row_no, user_id, input, status, video_key, thumbnail_key, message FROM batch_row
             WHERE status = 'VIEWED'
             ORDER BY submitted_at LIMIT ?1 FOR UPDATE SKIP LOCKED
            """;

    /**
     * On-view renders whose result did not come back in time (a worker died with the job, the result was lost): they
     * wait for admission again, ahead of later opens (their claim time is kept as it was).
     */
    private static final String REQUEUE_LOST_RENDERS = """
            UPDATE batch_row SET status = 'VIEWED' WHERE status = 'RENDERING' AND submitted_at < ?1
            """;

    private static final String ADMITTED = """
            UPDATE batch_row SET status = 'RENDERING', submitted_at = clock_timestamp()
             WHERE task_id = ?1 AND row_no = ?2
            """;

    private static final String ROW = """
            SELECT task_id, row_no, user_id, input, status, video_key, thumbnail_key, message FROM batch_row
             WHERE task_id = ?1 AND row_no = ?2
            """;

    /** Rows of running tasks whose render did not come back in time, with attempts left: submitted again. */
    private static final String RESUBMIT_LOST = """
            UPDATE batch_row r SET status = 'PENDING'
              FROM batch_task t
             WHERE t.id = r.task_id AND t.status = 'IN PROGRESS' AND r.status = 'SUBMITTED'
               AND r.submitted_at < ?1 AND r.attempts < ?2
            """;

    /**
     * Rows whose render did not come back in time and will not be submitted again (no attempts left, or their task
     * has ended): failed with {@code message}, counted as answered.
     */
    private static final String FAIL_LOST = """
            WITH lost AS (
                UPDATE batch_row r SET status = 'FAILURE', answered_at = now(),
                       message = CASE WHEN t.status = 'IN PROGRESS' THEN ?3 ELSE ?4 END
                  FROM batch_task t
                 WHERE t.id = r.task_id AND r.status = 'SUBMITTED' AND r.submitted_at < ?1
                   AND (r.attempts >= ?2 OR t.status <> 'IN PROGRESS')
                RETURNING r.task_id)
            UPDATE batch_task t SET processed = t.processed + n.count, updated_at = now()
              FROM (SELECT task_id, count(*) AS count FROM lost GROUP BY task_id) n
             WHERE t.id = n.task_id
            """;

    private static final String CANCEL_PENDING = """
            UPDATE batch_row SET status = 'CANCELLED', message = ?2 WHERE task_id = ?1 AND status = 'PENDING'
            """;

    /** Rows answered with a render time, and their render time together. */
    public record Rendered(long rows, long millis) {
    }

    public Uni<Long> inFlight() {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(IN_FLIGHT, Long.class)
                .getSingleResult());
    }

    public Uni<Rendered> rendered(Duration over) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(RENDERED_SINCE, Object[].class)
                .setParameter(1, over.toMillis()).getSingleResult())
                .map(row -> new Rendered(((Number) row[0]).longValue(), ((Number) row[1]).longValue()));
    }

    public Uni<List<BatchRow>> lockPending(UUID taskId, int limit) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(LOCK_PENDING, Object[].class)
                .setParameter(1, taskId).setParameter(2, limit).getResultList())
                .map(rows -> rows.stream().map(RowStore::row).toList());
    }

    public Uni<Integer> submitted(UUID taskId, int rowNo) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(SUBMITTED)
                .setParameter(1, taskId).setParameter(2, rowNo).executeUpdate());
    }

    /**
     * Applies a result: the status the row waited in ({@link RowStatus#SUBMITTED} or {@link RowStatus#RENDERING}),
     * or a null item when it was not waiting for one (a duplicate, or the row was given up).
     */
    public Uni<RowStatus> answer(UUID taskId, int rowNo, RowStatus outcome, String videoKey, String thumbnailKey,
            String message, Long renderMillis) {
        return NativeSql.one(String.class, ANSWER, taskId, rowNo, outcome.wire(), videoKey, thumbnailKey, message,
                renderMillis).map(was -> was == null ? null : RowStatus.ofWire(was));
    }

    /**
     * Claims a row's render on view ({@link #CLAIM_VIEW}); its attempts after the claim (1: its first view), or a
     * null item when there is nothing to claim (claimed already, rendered, not this client's, not on view).
     */
    public Uni<Integer> claimView(UUID taskId, int rowNo, UUID clientId, boolean retry, int maxAttempts) {
        return NativeSql.one(Integer.class, CLAIM_VIEW, taskId, rowNo, clientId, retry, maxAttempts);
    }

    public Uni<Long> rendering() {
        return NativeSql.one(Long.class, RENDERING);
    }

    public Uni<List<BatchRow>> lockViewed(int limit) {
        return NativeSql.list(Object[].class, LOCK_VIEWED, limit).map(rows -> rows.stream().map(RowStore::row)
                .toList());
    }

    public Uni<Integer> requeueLostRenders(Instant submittedBefore) {
        return NativeSql.update(REQUEUE_LOST_RENDERS, submittedBefore);
    }

    public Uni<Integer> admitted(UUID taskId, int rowNo) {
        return NativeSql.update(ADMITTED, taskId, rowNo);
    }

    public Uni<BatchRow> row(UUID taskId, int rowNo) {
        return NativeSql.one(Object[].class, ROW, taskId, rowNo).map(row -> row == null ? null : row(row));
    }

    public Uni<Integer> resubmitLost(Instant submittedBefore, int maxAttempts) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(RESUBMIT_LOST)
                .setParameter(1, submittedBefore).setParameter(2, maxAttempts).executeUpdate());
    }

    public Uni<Integer> failLost(Instant submittedBefore, int maxAttempts, String message, String endedMessage) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(FAIL_LOST)
                .setParameter(1, submittedBefore).setParameter(2, maxAttempts).setParameter(3, message)
                .setParameter(4, endedMessage).executeUpdate());
    }

    public Uni<Integer> cancelPending(UUID taskId, String message) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(CANCEL_PENDING)
                .setParameter(1, taskId).setParameter(2, message).executeUpdate());
    }

    /** {@link #LOCK_PENDING}'s columns, in its SELECT order ({@link RowStreams} reads the same by name). */
    private static BatchRow row(Object[] row) {
        return new BatchRow((UUID) row[0], ((Number) row[1]).intValue(), (String) row[2], (String) row[3],
                RowStatus.ofWire((String) row[4]), (String) row[5], (String) row[6], (String) row[7]);
    }
}
