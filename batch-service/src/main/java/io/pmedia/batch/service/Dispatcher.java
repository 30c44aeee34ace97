package io.pmedia.batch.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.hibernate.reactive.mutiny.Mutiny;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.batch.BatchStatus;
import io.pmedia.batch.BatchTask;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.common.outbox.Outbox;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Moves tasks along, on every replica, each step one transaction that claims its rows with
 * {@code FOR UPDATE SKIP LOCKED}: stops tasks whose campaign ended, resubmits lost renders, reads the input file of a
 * runnable {@code PENDING} task into rows, submits the next rows (highest priority first, a small window in flight)
 * as render jobs through the outbox, and completes tasks whose rows have all come back (docs/batch.md).
 */
@ApplicationScoped
public class Dispatcher {

    static final String PRODUCER = "batch";
    static final String REPLY_TO = "pmedia.batch.render-results";
    private static final int INSERT_CHUNK = 200;

    /** Not blocked by a campaign window that has not opened. */
    private static final String NOT_WAITING = " NOT EXISTS (SELECT 1 FROM campaign_window c WHERE c.client_id = t.client_id"
            + " AND c.campaign_id = t.campaign_id AND c.status = 'SCHEDULED')";

    private final Vertx vertx;
    private final ObjectStore store;
    private final Outbox outbox;
    private final BatchEvents events;
    private final ObjectMapper mapper;
    private final BatchConfig config;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean started;
    private long timer = -1;

    public Dispatcher(Vertx vertx, ObjectStore store, Outbox outbox, BatchEvents events, ObjectMapper mapper,
            BatchConfig config) {
        this.vertx = vertx;
        this.store = store;
        this.outbox = outbox;
        this.events = events;
        this.mapper = mapper;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        if (config.dispatcherEnabled()) {
            started = true;
            timer = vertx.setPeriodic(config.dispatchEvery().toMillis(), id -> wake());
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        started = false;
        vertx.cancelTimer(timer);
    }

    /** Runs a round now (or right after the one running). */
    public void wake() {
        if (!started) {
            return;
        }
        if (!running.compareAndSet(false, true)) {
            again.set(true);
            return;
        }
        again.set(false);
        BackgroundWork.run(vertx, "dispatching batch tasks", () -> round().eventually(() -> {
            running.set(false);
            if (again.getAndSet(false)) {
                wake();
            }
        }));
    }

    /** One round of every step. Safe on any number of replicas at once. */
    public Uni<Void> round() {
        return stopEndedCampaigns()
                .chain(this::resubmitLost)
                .chain(this::prepareNext)
                .chain(this::submitNext)
                .chain(this::completeDone)
                .replaceWithVoid();
    }

    // --- campaign window ------------------------------------------------------------------------------------------

    Uni<Integer> stopEndedCampaigns() {
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createNativeQuery("SELECT t.* FROM batch_task t WHERE t.status IN"
                        + " ('PENDING', 'IN PROGRESS') AND EXISTS (SELECT 1 FROM campaign_window c WHERE"
                        + " c.client_id = t.client_id AND c.campaign_id = t.campaign_id AND c.status = 'ENDED')"
                        + " LIMIT 20 FOR UPDATE OF t SKIP LOCKED", BatchTask.class).getResultList())
                .flatMap(tasks -> Multi.createFrom().iterable(tasks)
                        .onItem().transformToUniAndConcatenate(
                                task -> finish(task, BatchStatus.FAILED, "campaign ended before the task completed"))
                        .collect().asList().map(List::size)));
    }

    // --- reading the input file -----------------------------------------------------------------------------------

    Uni<Boolean> prepareNext() {
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createNativeQuery("SELECT t.* FROM batch_task t WHERE t.status = 'PENDING'"
                        + " AND" + NOT_WAITING + " ORDER BY t.priority DESC, t.created_at LIMIT 1"
                        + " FOR UPDATE OF t SKIP LOCKED", BatchTask.class).getSingleResultOrNull()
                        .flatMap(task -> task == null
                                ? Uni.createFrom().item(false)
                                : read(task).flatMap(input -> input.problem() != null
                                        ? fail(task, "input file: " + input.problem())
                                        : start(session, task, input.columns(), input.records()))
                                        .replaceWith(true))));
    }

    /** A task's file as read: its header's columns and every record (the header's too), or what is wrong with it. */
    private record Input(List<String> columns, List<List<String>> records, String problem) {

        static Input wrong(String problem) {
            return new Input(null, null, problem);
        }
    }

    /**
     * Reads and parses the task's file. What is wrong with the file itself is an {@link Input#problem()} (the task
     * fails with it); only the object store being unreachable fails the read, so the next round tries again.
     */
    private Uni<Input> read(BatchTask task) {
        InputFiles.Location file = InputFiles.parse(task.filePath);
        return Blocking.offload(() -> {
            try (InputStream in = store.open(file.bucket(), file.key()).orElse(null)) {
                if (in == null) {
                    return Input.wrong("'" + file + "' no longer exists");
                }
                List<List<String>> records = InputFiles.csv(InputFiles.text(in, config.maxFileBytes()));
                if (records.isEmpty()) {
                    return Input.wrong("the input file is empty");
                }
                return new Input(InputFiles.header(records.get(0)), records, null);
            } catch (InputFiles.InputException e) {
                return Input.wrong(e.getMessage());
            } catch (IOException e) {
                throw new UncheckedIOException("'" + file + "' cannot be read", e);
            }
        });
    }

    private Uni<Void> start(Mutiny.Session session, BatchTask task, List<String> columns,
            List<List<String>> records) {
        int total = Math.min(task.rowCount, records.size() - 1);
        if (total == 0) {
            return fail(task, "input file: it has no rows after the header line");
        }
        List<Object[]> rows = new ArrayList<>(total);
        int failedEarly = 0;
        for (int i = 1; i <= total; i++) {
            List<String> record = records.get(i);
            Map<String, String> values = new HashMap<>();
            for (int c = 0; c < columns.size() && c < record.size(); c++) {
                values.put(columns.get(c), record.get(c).strip());
            }
            String userId = values.getOrDefault("user-id", "");
            String problem = record.size() > columns.size()
                    ? "row " + i + " has " + record.size() + " fields, the header " + columns.size()
                    : userId.isEmpty() ? "row " + i + ": user-id is empty" : null;
            if (problem != null) {
                failedEarly++;
            }
            rows.add(new Object[]{i, userId, input(values).toString(), problem == null ? "PENDING" : "FAILURE",
                    problem});
        }
        task.totalCount = total;
        task.processed = failedEarly;
        String shortfall = total < task.rowCount
                ? " (the file has " + total + " of the " + task.rowCount
                        + " rows asked for)"
                : "";
        task.status(BatchStatus.IN_PROGRESS, "rendering " + total + " rows" + shortfall);
        return insertRows(session, task.id, rows).call(() -> events.statusOf(task));
    }

    /** A row's data as a render job's {@code input}: fields by column name, asset URLs by numbered columns. */
    private ObjectNode input(Map<String, String> values) {
        ObjectNode input = mapper.createObjectNode();
        ObjectNode fields = input.putObject("fields");
        Map<String, TreeMap<Integer, String>> assets = Map.of("images", new TreeMap<>(), "videos", new TreeMap<>(),
                "icons", new TreeMap<>());
        values.forEach((column, value) -> {
            String kind = column.startsWith("image-url")
                    ? "images"
                    : column.startsWith("video-url")
                            ? "videos"
                            : column.startsWith("icon-url") ? "icons" : null;
            if (kind != null) {
                String suffix = column.substring(column.indexOf("-url") + 4);
                int index = suffix.isEmpty()
                        ? 1
                        : suffix.matches("-[1-9][0-9]?") ? Integer.parseInt(suffix.substring(1)) : -1;
                if (index > 0) {
                    assets.get(kind).put(index, value);
                    return;
                }
            }
            if (!column.equals("user-id") && !value.isEmpty()) {
                fields.put(column, value);
            }
        });
        assets.forEach((kind, byIndex) -> {
            ArrayNode list = input.putArray(kind);
            if (!byIndex.isEmpty()) {
                for (int i = 1; i <= byIndex.lastKey(); i++) {
                    list.add(byIndex.getOrDefault(i, ""));
                }
            }
        });
        input.putArray("cohorts");
        input.putArray("frame-segments");
        return input;
    }

    private Uni<Void> insertRows(Mutiny.Session session, UUID taskId, List<Object[]> rows) {
        List<Uni<Integer>> chunks = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += INSERT_CHUNK) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + INSERT_CHUNK));
            StringBuilder sql = new StringBuilder(
                    "INSERT INTO batch_row (task_id, row_no, user_id, input, status, message) VALUES ");
            int p = 1;
            for (int i = 0; i < chunk.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append("(?").append(p++).append(", ?").append(p++).append(", ?")
                        .append(p++).append(", ?").append(p++).append(", ?").append(p++).append(", ?").append(p++)
                        .append(')');
            }
            chunks.add(Uni.createFrom().deferred(() -> {
                var query = session.createNativeQuery(sql.toString());
                int q = 1;
                for (Object[] row : chunk) {
                    query.setParameter(q++, taskId);
                    for (Object value : row) {
                        query.setParameter(q++, value);
                    }
                }
                return query.executeUpdate();
            }));
        }
        return Multi.createFrom().iterable(chunks).onItem().transformToUniAndConcatenate(uni -> uni)
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> fail(BatchTask task, String message) {
        task.status(BatchStatus.FAILED, message);
        return events.statusOf(task);
    }

    // --- submitting rows ------------------------------------------------------------------------------------------

    Uni<Integer> submitNext() {
        return Panache.withTransaction(() -> Panache.getSession().flatMap(session -> session
                .createNativeQuery("SELECT count(*) FROM batch_row WHERE status = 'SUBMITTED'", Long.class)
                .getSingleResult()
                .flatMap(inFlight -> {
                    int free = config.window() - inFlight.intValue();
                    if (free <= 0) {
                        return Uni.createFrom().item(0);
                    }
                    return session.createNativeQuery("SELECT r.task_id, r.row_no, r.input FROM batch_row r"
                            + " JOIN batch_task t ON t.id = r.task_id WHERE r.status = 'PENDING'"
                            + " AND t.status = 'IN PROGRESS' AND" + NOT_WAITING
                            + " ORDER BY t.priority DESC, t.created_at, r.row_no LIMIT ?1"
                            + " FOR UPDATE OF r SKIP LOCKED", Object[].class)
                            .setParameter(1, free).getResultList()
                            .flatMap(rows -> {
                                Map<UUID, JsonNode> templates = new HashMap<>();
                                return Multi.createFrom().iterable(rows)
                                        .onItem().transformToUniAndConcatenate(row -> submit(session, row, templates))
                                        .collect().asList().map(List::size);
                            });
                })));
    }

    /** Submits one row as a render job; {@code templates} keeps each task's parsed template for the round. */
    private Uni<Void> submit(Mutiny.Session session, Object[] row, Map<UUID, JsonNode> templates) {
        UUID taskId = (UUID) row[0];
        int rowNo = ((Number) row[1]).intValue();
        return session.find(BatchTask.class, taskId).flatMap(task -> {
            String jobId = taskId + "/" + rowNo;
            ObjectNode job = mapper.createObjectNode()
                    .put("job-id", jobId)
                    .put("producer", PRODUCER)
                    .put("reply-to", REPLY_TO)
                    .put("client-id", task.clientId.toString())
                    .put("template-id", task.templateId.toString())
                    .put("template-version", task.templateVersion)
                    .put("output-prefix", "batch/" + task.clientId + "/" + taskId + "/" + rowNo + "/")
                    .put("time-limit-seconds", config.renderTimeLimit().toSeconds());
            try {
                JsonNode template = templates.get(taskId);
                if (template == null) {
                    template = mapper.readTree(task.template);
                    templates.put(taskId, template);
                }
                job.set("template", template);
                job.set("input", mapper.readTree((String) row[2]));
            } catch (IOException e) {
                return Uni.createFrom().failure(new IllegalStateException("task " + taskId + " is unreadable", e));
            }
            return session.createNativeQuery("UPDATE batch_row SET status = 'SUBMITTED', attempts = attempts + 1,"
                    + " submitted_at = now() WHERE task_id = ?1 AND row_no = ?2")
                    .setParameter(1, taskId).setParameter(2, rowNo).executeUpdate()
                    .chain(() -> outbox.add(Topics.RENDER_JOBS, jobId,
                            CloudEvent.of(BatchEvents.SOURCE, Topics.RENDER_JOB_REQUESTED, jobId, job)));
        });
    }

    /**
     * Rows submitted long ago with no result (the job or its result was lost, or a worker died): submitted again, or
     * failed after {@code max-attempts}.
     */
    Uni<Integer> resubmitLost() {
        Instant before = Instant.now().minus(config.resubmitAfter());
        return Panache.withTransaction(() -> Panache.getSession().flatMap(session -> session
                .createNativeQuery("UPDATE batch_row SET status = 'PENDING' WHERE status = 'SUBMITTED'"
                        + " AND submitted_at < ?1 AND attempts < ?2")
                .setParameter(1, before).setParameter(2, config.maxAttempts()).executeUpdate()
                .flatMap(again -> session.createNativeQuery("WITH lost AS (UPDATE batch_row SET status = 'FAILURE',"
                        + " message = ?3 WHERE status = 'SUBMITTED' AND submitted_at < ?1 AND attempts >= ?2"
                        + " RETURNING task_id) UPDATE batch_task t SET processed = t.processed + n.count,"
                        + " updated_at = now() FROM (SELECT task_id, count(*) AS count FROM lost GROUP BY task_id) n"
                        + " WHERE t.id = n.task_id")
                        .setParameter(1, before).setParameter(2, config.maxAttempts())
                        .setParameter(3, "render did not complete after " + config.maxAttempts() + " attempts")
                        .executeUpdate().map(failed -> again + failed))));
    }

    // --- results and completion -----------------------------------------------------------------------------------

    /** Applies one render result to its row, once; the task's counters move with it. */
    public Uni<Boolean> apply(UUID taskId, int rowNo, boolean success, String videoKey, String thumbnailKey,
            String message) {
        return Panache.withTransaction(() -> Panache.getSession().flatMap(session -> session
                .createNativeQuery("UPDATE batch_row SET status = ?3, video_key = ?4, thumbnail_key = ?5,"
                        + " message = ?6 WHERE task_id = ?1 AND row_no = ?2 AND status = 'SUBMITTED'")
                .setParameter(1, taskId).setParameter(2, rowNo).setParameter(3, success ? "SUCCESS" : "FAILURE")
                .setParameter(4, videoKey).setParameter(5, thumbnailKey).setParameter(6, message)
                .executeUpdate()
                .flatMap(updated -> updated == 0
                        ? Uni.createFrom().item(false)
                        : session.createNativeQuery("UPDATE batch_task SET processed = processed + 1,"
                                + " succeeded = succeeded + ?2, updated_at = now() WHERE id = ?1")
                                .setParameter(1, taskId).setParameter(2, success ? 1 : 0).executeUpdate()
                                .replaceWith(true))))
                .invoke(applied -> {
                    if (applied) {
                        wake();
                    }
                });
    }

    Uni<Integer> completeDone() {
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createNativeQuery("SELECT * FROM batch_task WHERE status = 'IN PROGRESS'"
                        + " AND processed >= total_count LIMIT 10 FOR UPDATE SKIP LOCKED", BatchTask.class)
                        .getResultList())
                .flatMap(tasks -> Multi.createFrom().iterable(tasks)
                        .onItem().transformToUniAndConcatenate(task -> task.succeeded == 0
                                ? finish(task, BatchStatus.FAILED, "no row could be rendered")
                                : finish(task, BatchStatus.COMPLETED, task.succeeded + " of " + task.totalCount
                                        + " rows rendered"))
                        .collect().asList().map(List::size)));
    }

    /**
     * Ends a task (claimed, in a transaction): rows not yet submitted are cancelled, the output file is written with
     * every row's outcome so far, and the status changes with its event.
     */
    public Uni<BatchTask> finish(BatchTask task, BatchStatus status, String message) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery(
                        "UPDATE batch_row SET status = 'CANCELLED' WHERE task_id = ?1 AND status = 'PENDING'")
                .setParameter(1, task.id).executeUpdate()
                .chain(() -> session.createNativeQuery("SELECT row_no, user_id, status, video_key, thumbnail_key,"
                        + " message FROM batch_row WHERE task_id = ?1 ORDER BY row_no", Object[].class)
                        .setParameter(1, task.id).getResultList()))
                .flatMap(rows -> rows.isEmpty() ? Uni.createFrom().item((String) null) : writeOutput(task, rows))
                .flatMap(path -> {
                    task.outputPath = path;
                    task.status(status, message);
                    return events.statusOf(task).replaceWith(task);
                });
    }

    /** The output CSV: one line per row with its outcome and the URLs of its video and thumbnail. */
    private Uni<String> writeOutput(BatchTask task, List<Object[]> rows) {
        String key = "batch/" + task.clientId + "/" + task.id + "/output.csv";
        return Blocking.offload(() -> {
            StringBuilder csv = new StringBuilder("row,user-id,status,video-path,video-url,image-url,message\r\n");
            for (Object[] row : rows) {
                String videoKey = (String) row[3];
                String thumbnailKey = (String) row[4];
                csv.append(row[0]).append(',').append(cell((String) row[1])).append(',').append(cell((String) row[2]))
                        .append(',').append(cell(videoKey == null ? null : store.bucket() + "/" + videoKey))
                        .append(',').append(cell(videoKey == null ? null : store.publicUrl(videoKey)))
                        .append(',').append(cell(thumbnailKey == null ? null : store.publicUrl(thumbnailKey)))
                        .append(',').append(cell((String) row[5])).append("\r\n");
            }
            store.put(key, csv.toString().getBytes(StandardCharsets.UTF_8), "text/csv; charset=utf-8");
            return store.bucket() + "/" + key;
        });
    }

    /** A CSV field, quoted when it must be; a leading formula character is neutralised for spreadsheets. */
    static String cell(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        String text = "=+@".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        boolean quote = !text.equals(text.strip()) || text.chars().anyMatch(c -> c == '"' || c == ',' || c == '\r'
                || c == '\n');
        return quote
                ? '"' + text.replace("\"", "\"\"") + '"'
                : text;
    }
}
