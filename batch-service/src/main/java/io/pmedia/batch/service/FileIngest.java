package io.pmedia.batch.service;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.RowStatus;
import io.pmedia.batch.repository.RowStreams;
import io.pmedia.events.BatchStatus;
import io.pmedia.events.EventPayload;

/**
 * The blocking core of reading a file into a task's rows (docs/batch.md, "The input file"): records are parsed one at a
 * time ({@link InputFile}), checked and mapped ({@link Columns}), and copied into PostgreSQL as they come
 * ({@link RowStreams}); the task starts, with its event, in the same transaction, or fails with what is wrong. Plain
 * (no CDI), so the ingestion benchmark runs exactly this code alone.
 */
public final class FileIngest {

    private static final Logger LOG = Logger.getLogger(FileIngest.class);
    private static final int MAX_USER_ID = 255;
    /** Unused columns named in a message, and the characters of each name shown. */
    private static final int MAX_NAMES = 20;
    private static final int MAX_NAME = 64;

    private final RowStreams streams;
    private final ObjectWriter inputWriter;
    private final InputFile.Limits limits;
    private final Function<BatchTask, EventPayload> event;

    /**
     * @param inputWriter writes a row's {@link io.pmedia.events.RenderInput} as stored
     * @param event the status event of a task as it stands
     */
    public FileIngest(RowStreams streams, ObjectWriter inputWriter, InputFile.Limits limits,
            Function<BatchTask, EventPayload> event) {
        this.streams = streams;
        this.inputWriter = inputWriter;
        this.limits = limits;
        this.event = event;
    }

    /**
     * Reads {@code in} (the task's file; the caller closes it) into the rows of {@code task}, which {@code lease}
     * holds, with {@code template} (its definition). An I/O failure of the store or the database is thrown: the file is
     * read again later.
     */
    public void ingest(BatchTask task, UUID lease, JsonNode template, InputStream in)
            throws IOException, SQLException {
        try (InputFile file = InputFile.open(in, limits); RowStreams.RowCopy copy = streams.copy(task.id)) {
            store(task, lease, file, Columns.of(file.columns(), template), copy);
        } catch (InputFile.Unusable e) {
            fail(task, lease, "input file: " + e.getMessage());
        }
    }

    /** The task fails with {@code message}, unless it is no longer this lease's. */
    public void fail(BatchTask task, UUID lease, String message) throws SQLException {
        task.status(BatchStatus.FAILED, message);
        if (!streams.fail(task.id, lease, message, event.apply(task))) {
            LOG.infof("task %s was cancelled (or taken over) while its file was read", task.id);
        }
    }

    /** Copies the first {@code row-count} data records, then counts the rest; commits only a complete set. */
    private void store(BatchTask task, UUID lease, InputFile file, Columns columns, RowStreams.RowCopy copy)
            throws IOException, SQLException, InputFile.Unusable {
        int failed = 0;
        int stored = 0;
        // A task rendered on view hands out links: its rows wait for their first view, not for the dispatcher.
        RowStatus ready = task.onView() ? RowStatus.ON_VIEW : RowStatus.PENDING;
        InputFile.Record record;
        while (stored < task.rowCount && (record = file.next()) != null) {
            stored++;
            String problem = problem(record, columns);
            if (problem == null) {
                copy.add(record.number(), columns.userId(record.cells()),
                        inputWriter.writeValueAsString(columns.input(record.cells())), ready, null);
            } else {
                failed++;
                copy.add(record.number(), columns.userId(record.cells()).replace("\u0000", ""), "{}",
                        RowStatus.FAILURE, problem);
            }
        }
        if (stored < task.rowCount) {
            // Nothing is kept (the copy rolls back when closed uncommitted): a truncated upload is never a smaller batch.
            fail(task, lease, "input file: it has " + stored + " data row" + (stored == 1 ? "" : "s")
                    + ", fewer than the row-count of " + task.rowCount + "; nothing was rendered");
            return;
        }
        List<String> notes = new ArrayList<>();
        String beyond = beyond(file, task.rowCount);
        if (beyond != null) {
            notes.add(beyond);
        }
        if (!columns.unused().isEmpty()) {
            notes.add("columns no template field uses were ignored: " + names(columns.unused()));
        }
        task.notes = notes.isEmpty() ? null : String.join("; ", notes);
        task.totalCount = stored;
        // On view, every row is done once read (its link is out): the output file is written next.
        task.processed = task.onView() ? stored : failed;
        task.failedOnRead = failed;
        task.startedAt = Instant.now();
        task.status(BatchStatus.IN_PROGRESS, null);
        task.message = Progress.message(task, task.startedAt);
        if (!copy.start(lease, new RowStreams.Started(task.message, stored, task.processed, failed, task.notes),
                event.apply(task))) {
            LOG.infof("task %s was cancelled (or taken over) while its file was read: its rows are not kept", task.id);
        }
    }

    /** Column names as the message lists them: the vendor's own text, so each one and the list are kept short. */
    private static String names(List<String> names) {
        String listed = names.stream().limit(MAX_NAMES)
                .map(name -> "'" + (name.length() > MAX_NAME ? name.substring(0, MAX_NAME) + "..." : name) + "'")
                .collect(Collectors.joining(", "));
        return names.size() > MAX_NAMES ? listed + " and " + (names.size() - MAX_NAMES) + " more" : listed;
    }

    /** Why a record fails at once, or null when it can be rendered. */
    private static String problem(InputFile.Record record, Columns columns) {
        int row = record.number();
        if (record.extraCells() > 0) {
            return "row " + row + " has " + (record.cells().size() + record.extraCells()) + " fields, the header "
                    + columns.names().size();
        }
        if (record.cells().stream().anyMatch(cell -> cell.indexOf('\u0000') >= 0)) {
            return "row " + row + " holds a NUL character";
        }
        String userId = columns.userId(record.cells());
        if (userId.isEmpty()) {
            return "row " + row + ": user-id is empty";
        }
        if (userId.length() > MAX_USER_ID) {
            return "row " + row + ": user-id is longer than " + MAX_USER_ID + " characters";
        }
        return null;
    }

    /**
     * What to say of the records after the first {@code rowCount}: how many there are (they are read, not kept), or
     * null when there are none.
     */
    private static String beyond(InputFile file, int rowCount) throws IOException {
        long more = 0;
        try {
            while (file.next() != null) {
                more++;
            }
        } catch (InputFile.Unusable e) {
            // Something follows, though not all of it is CSV: it is not rendered either way.
            return "the file has more than " + rowCount + " data rows: only the first " + rowCount
                    + " (row-count) are rendered";
        }
        return more == 0
                ? null
                : "the file has " + (rowCount + more) + " data rows: only the first " + rowCount
                        + " (row-count) are rendered";
    }
}
