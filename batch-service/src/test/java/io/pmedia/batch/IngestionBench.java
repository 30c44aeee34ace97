package io.pmedia.batch;

import java.io.BufferedWriter;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.flywaydb.core.Flyway;
import org.postgresql.ds.PGSimpleDataSource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.pmedia.batch.repository.RowStreams;
import io.pmedia.batch.service.FileIngest;
import io.pmedia.batch.service.InputFile;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.BatchStatusChanged;
import io.pmedia.events.EventCodec;

/**
 * The ingestion benchmark (not a test): batch-service's own reading code ({@link FileIngest}: Jackson CSV, COPY, the
 * task's start in the same transaction) alone in this JVM, on a generated file of N rows (default 1,000,000, about
 * 200 MB: the limit of docs/batch.md) read as a stream, into a scratch database {@code pmedia_batch_bench} migrated
 * with the service's own migrations. Prints rows per second, and the peak RSS and heap of the process, sampled every
 * 200 ms: run it with the service's heap ({@code -Xmx384m}, as ./pmedia runs it) to show the rows need no more.
 * {@code bench/batch/ingest.sh [rows]} builds and runs it; PMEDIA_DB_HOST/PORT/USER/PASSWORD name the server.
 */
public final class IngestionBench {

    private IngestionBench() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String host = env("PMEDIA_DB_HOST", "127.0.0.1");
        String port = env("PMEDIA_DB_PORT", "5432");
        String user = env("PMEDIA_DB_USER", "pmedia");
        String password = env("PMEDIA_DB_PASSWORD", "pmedia");
        String database = "pmedia_batch_bench";
        try (Connection admin = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres",
                user, password);
                PreparedStatement exists = admin.prepareStatement(
                        "SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, database);
            try (ResultSet found = exists.executeQuery()) {
                if (!found.next()) {
                    admin.createStatement().execute("CREATE DATABASE " + database);
                }
            }
        }
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://" + host + ":" + port + "/" + database);
        dataSource.setUser(user);
        dataSource.setPassword(password);
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration", "classpath:db/outbox")
                .cleanDisabled(false).load().clean();
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration", "classpath:db/outbox").load()
                .migrate();

        Path file = Files.createTempFile("pmedia-batch-bench-", ".csv");
        try {
            generate(file, rows);
            run(dataSource, file, rows);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void run(PGSimpleDataSource dataSource, Path file, int rows) throws Exception {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());
        EventPublisher publisher = new EventPublisher(new EventCodec(mapper), "batch-bench");
        RowStreams streams = new RowStreams(dataSource, publisher);
        FileIngest ingest = new FileIngest(streams,
                mapper.copy().setSerializationInclusion(JsonInclude.Include.NON_EMPTY).writer(),
                new InputFile.Limits(268_435_456L, 100, 10_000),
                task -> new BatchStatusChanged(task.clientId, task.id, task.campaignId, task.templateId, task.status(),
                        null, task.totalCount, task.processed, task.message, task.dueAt, null));
        BatchTask task = task(rows);
        UUID lease = UUID.randomUUID();
        try (Connection db = dataSource.getConnection(); PreparedStatement insert = db.prepareStatement("""
                INSERT INTO batch_task (id, client_id, campaign_id, template_id, template_version, template, file_path,
                                        priority, row_count, expected_output_duration, status, message, created_at,
                                        updated_at, due_at, lease_token, lease_until)
                VALUES (?, ?, 'bench', ?, 1, ?, 'bench', 0, ?, 60, 'PENDING', 'task accepted', now(), now(),
                        now() + interval '1 hour', ?, now() + interval '1 hour')
                """)) {
            insert.setObject(1, task.id);
            insert.setObject(2, task.clientId);
            insert.setObject(3, task.templateId);
            insert.setString(4, task.template);
            insert.setInt(5, rows);
            insert.setObject(6, lease);
            insert.executeUpdate();
        }

        AtomicLong peakHeap = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> peakHeap.accumulateAndGet(
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max), 0, 200,
                TimeUnit.MILLISECONDS);
        long rssBefore = status("VmRSS");
        long started = System.nanoTime();
        try (InputStream in = Files.newInputStream(file)) {
            ingest.ingest(task, lease, mapper.readTree(task.template), in);
        } finally {
            sampler.shutdownNow();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        String stored;
        try (Connection db = dataSource.getConnection();
                PreparedStatement count = db.prepareStatement(
                        "SELECT t.status, t.total_count, (SELECT count(*) FROM batch_row r WHERE r.task_id = t.id)"
                                + " FROM batch_task t WHERE t.id = ?")) {
            count.setObject(1, task.id);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                stored = result.getString(1) + ", " + result.getLong(3) + " rows stored";
            }
        }
        System.out.printf(Locale.ROOT, """
                batch ingestion benchmark, %s, %s (%d cores)
                file: %,d rows, %.1f MB, read as a stream from disk (the service reads the object store's response
                      the same way)
                task: %s
                time: %.1f s, %,.0f rows/s
                heap: max %d MB (-Xmx), peak used %d MB
                RSS:  %d MB before, peak %d MB (VmHWM)
                """, LocalDate.now(), cpu(), Runtime.getRuntime().availableProcessors(), rows,
                Files.size(file) / 1e6, stored, seconds, rows / seconds, Runtime.getRuntime().maxMemory() >> 20,
                peakHeap.get() >> 20, rssBefore >> 10, status("VmHWM") >> 10);
    }

    /** About 200 bytes a row, as a vendor's file of a million customers might be (200 MB). */
    private static void generate(Path file, int rows) throws Exception {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("user-id,name,offer,image-url\n");
            for (int i = 1; i <= rows; i++) {
                out.write(String.format(Locale.ROOT, "customer-%08d,\"Customer %08d, Esq.\",\"Offer %08d: 20%% off"
                        + " your next order of shoes, bags or coats, this week only\",https://cdn.example.com/"
                        + "customers/%08d/portrait-photo-large.png%n", i, i, i, i));
            }
        }
    }

    private static BatchTask task(int rows) {
        BatchTask task = new BatchTask();
        task.id = UUID.randomUUID();
        task.clientId = UUID.randomUUID();
        task.campaignId = "bench";
        task.templateId = UUID.randomUUID();
        task.template = """
                {"use-case-id": "greeting", "canvas": {"width": 1280, "height": 720, "fps": 30},
                 "fields": [{"name": "name", "required": true}, {"name": "offer"}],
                 "assets": {"images": [{"name": "photo"}]}, "segments": []}""";
        task.rowCount = rows;
        task.createdAt = Instant.now();
        task.dueAt = task.createdAt.plus(Duration.ofHours(1));
        task.status(io.pmedia.events.BatchStatus.PENDING, "task accepted");
        return task;
    }

    /** A line of /proc/self/status in kB (VmRSS, VmHWM). */
    private static long status(String name) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static String cpu() throws Exception {
        return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                .findFirst().map(line -> line.substring(line.indexOf(':') + 1).strip()).orElse("unknown CPU");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
