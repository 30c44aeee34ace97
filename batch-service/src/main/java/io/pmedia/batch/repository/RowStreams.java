package io.pmedia.batch.repository;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.function.Consumer;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import io.pmedia.batch.BatchRow;
import io.pmedia.batch.RowStatus;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.EventPayload;

/**
 * The bulk paths of a task's rows, on a JDBC connection (blocking: call from a worker thread), which the reactive
 * session cannot do: rows enter with {@code COPY ... FROM STDIN} as the file is read, in one transaction that also
 * moves the task on (or nothing is kept), and leave through a server-side cursor for the output file. Memory stays
 * bounded whatever the number of rows.
 */
@ApplicationScoped
public class RowStreams {

    /** Rows a task may have from an earlier, abandoned read (a replica that died before its commit). */
    private static final String DELETE_ROWS = """
            DELETE FROM batch_row WHERE task_id = ?
            """;

    private static final String COPY_ROWS = """
            COPY batch_row (task_id, row_no, user_id, input, status, message) FROM STDIN
            """;

    /** The file was read: the task runs, if it is still pending and this read still holds its lease. */
    private static final String START = """
            UPDATE batch_task
               SET status = 'IN PROGRESS', message = ?, total_count = ?, processed = ?, failed_on_read = ?, notes = ?,
                   started_at = now(), reported_at = now(), reported_processed = ?, updated_at = now(),
                   lease_token = NULL, lease_until = NULL
             WHERE id = ? AND status = 'PENDING' AND lease_token = ?
            """;

    /** The file cannot be used: the task fails, if it is still pending and this read still holds its lease. */
    private static final String FAIL = """
            UPDATE batch_task
               SET status = 'FAILED', message = ?, updated_at = now(), lease_token = NULL, lease_until = NULL
             WHERE id = ? AND status = 'PENDING' AND lease_token = ?
            """;

    private static final String ROWS_IN_ORDER = """
            SELECT row_no, user_id, input, status, video_key, thumbnail_key, message FROM batch_row
             WHERE task_id = ? ORDER BY row_no
            """;

    /** COPY data is sent in pieces of about this size. */
    private static final int COPY_CHUNK = 256 * 1024;
    /** Rows fetched per round trip of the output cursor. */
    private static final int FETCH = 2000;
    /** Events of a {@link Publication} committed together. */
    private static final int EVENTS_PER_COMMIT = 10;

    /** What a task looks like once its file has been read. */
    public record Started(String message, int totalCount, int processed, int failedOnRead, String notes) {
    }

    private final DataSource dataSource;
    private final EventPublisher publisher;

    public RowStreams(DataSource dataSource, EventPublisher publisher) {
        this.dataSource = dataSource;
        this.publisher = publisher;
    }

    /** Starts storing the rows of {@code taskId}: rows of an earlier read are removed, then rows are copied in. */
    public RowCopy copy(UUID taskId) throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            connection.setAutoCommit(false);
            try (PreparedStatement delete = connection.prepareStatement(DELETE_ROWS)) {
                delete.setObject(1, taskId);
                delete.executeUpdate();
            }
            CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(COPY_ROWS);
            return new RowCopy(connection, copy, taskId);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Fails a pending task this lease holds, with its event, in a transaction of its own; false when the lease was
     * lost (another replica reads the file now, or the task was cancelled meanwhile).
     */
    public boolean fail(UUID taskId, UUID lease, String message, EventPayload event) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement fail = connection.prepareStatement(FAIL)) {
                fail.setString(1, message);
                fail.setObject(2, taskId);
                fail.setObject(3, lease);
                if (fail.executeUpdate() == 0) {
                    connection.rollback();
                    return false;
                }
                publisher.publish(connection, event);
                connection.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** Every row of a task in file order, through a cursor ({@value #FETCH} rows in memory at a time). */
    public void forEachRow(UUID taskId, Consumer<BatchRow> consumer) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            // A cursor needs a transaction; it only reads.
            connection.setAutoCommit(false);
            try (PreparedStatement select = connection.prepareStatement(ROWS_IN_ORDER)) {
                select.setFetchSize(FETCH);
                select.setObject(1, taskId);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        consumer.accept(new BatchRow(taskId, rows.getInt("row_no"), rows.getString("user_id"),
                                rows.getString("input"),
                                RowStatus.ofWire(rows.getString("status")), rows.getString("video_key"),
                                rows.getString("thumbnail_key"), rows.getString("message")));
                    }
                }
            } finally {
                connection.rollback();
            }
        }
    }

    /**
     * Events through the outbox on a connection of their own (the share pages of the rows an output file is being
     * written for: docs/sharing.md), committed {@value #EVENTS_PER_COMMIT} at a time: a commit waits for the disk,
     * and a million-row task's file publishes 5,000 events. Blocking; close it.
     */
    public Publication publication() throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            connection.setAutoCommit(false);
            return new Publication(connection);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Events on their way into the outbox. What {@link #commit()} (or every {@value #EVENTS_PER_COMMIT}th event)
     * committed stays; {@link #close()} rolls back the rest.
     */
    public final class Publication implements AutoCloseable {

        private final Connection connection;
        private int uncommitted;

        private Publication(Connection connection) {
            this.connection = connection;
        }

        public void publish(EventPayload payload) throws SQLException {
            publisher.publish(connection, payload);
            if (++uncommitted >= EVENTS_PER_COMMIT) {
                commit();
            }
        }

        /** Commits the events published so far. */
        public void commit() throws SQLException {
            if (uncommitted > 0) {
                connection.commit();
                uncommitted = 0;
            }
        }

        @Override
        public void close() throws SQLException {
            try {
                connection.rollback();
            } finally {
                connection.close();
            }
        }
    }

    /**
     * A task's rows on their way in. Nothing is visible until {@link #start} commits; {@link #close()} without it rolls
     * everything back.
     */
    public final class RowCopy implements AutoCloseable {

        private final Connection connection;
        private final CopyIn copy;
        private final UUID taskId;
        private final String taskColumn;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(COPY_CHUNK + 4096);
        private boolean done;

        private RowCopy(Connection connection, CopyIn copy, UUID taskId) {
            this.connection = connection;
            this.copy = copy;
            this.taskId = taskId;
            this.taskColumn = taskId + "\t";
        }

        /** One row, in COPY's text format. */
        public void add(int rowNo, String userId, String input, RowStatus status, String message)
                throws SQLException {
            StringBuilder line = new StringBuilder(taskColumn.length() + input.length() + 64).append(taskColumn)
                    .append(rowNo).append('\t');
            text(line, userId).append('\t');
            text(line, input).append('\t').append(status.wire()).append('\t');
            text(line, message).append('\n');
            byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
            buffer.write(bytes, 0, bytes.length);
            if (buffer.size() >= COPY_CHUNK) {
                flush();
            }
        }

        /**
         * Ends the copy and starts the task with its event, in the same transaction: true when it committed, false
         * when the task is no longer this read's (cancelled meanwhile, or its lease expired): then nothing is kept.
         */
        public boolean start(UUID lease, Started started, EventPayload event) throws SQLException {
            flush();
            copy.endCopy();
            try (PreparedStatement start = connection.prepareStatement(START)) {
                start.setString(1, started.message());
                start.setInt(2, started.totalCount());
                start.setInt(3, started.processed());
                start.setInt(4, started.failedOnRead());
                start.setString(5, started.notes());
                start.setInt(6, started.processed());
                start.setObject(7, taskId);
                start.setObject(8, lease);
                if (start.executeUpdate() == 0) {
                    return false;
                }
            }
            publisher.publish(connection, event);
            connection.commit();
            done = true;
            return true;
        }

        private void flush() throws SQLException {
            if (buffer.size() > 0) {
                copy.writeToCopy(buffer.toByteArray(), 0, buffer.size());
                buffer.reset();
            }
        }

        @Override
        public void close() throws SQLException {
            try {
                if (!done) {
                    if (copy.isActive()) {
                        copy.cancelCopy();
                    }
                    connection.rollback();
                }
            } finally {
                connection.close();
            }
        }

        /**
         * A value in COPY's text format: backslash, tab, newline and carriage return escaped; null as {@code \N}.
         * PostgreSQL text cannot hold NUL: callers never pass one (a row with NUL fails on reading).
         */
        private static StringBuilder text(StringBuilder line, String value) {
            if (value == null) {
                return line.append("\\N");
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '\\' -> line.append("\\\\");
                    case '\t' -> line.append("\\t");
                    case '\n' -> line.append("\\n");
                    case '\r' -> line.append("\\r");
                    default -> line.append(c);
                }
            }
            return line;
        }
    }
}
