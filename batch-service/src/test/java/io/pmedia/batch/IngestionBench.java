package io.pmedia.batch;

import java.io.BufferedWriter;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
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
import java.util.Optional;
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

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.pmedia.batch.repository.RowStreams;
import io.pmedia.batch.service.FileIngest;
import io.pmedia.batch.service.InputFile;
import io.pmedia.batch.service.OutputPass;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.BatchStatusChanged;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderMode;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.StorageConfig;

/**
 * The ingestion benchmark (not a test): batch-service's own reading code ({@link FileIngest}: Jackson CSV, COPY, the
 * task's start in the same transaction) alone in this JVM, on a generated file of N rows (default 1,000,000, about
 * 200 MB: the limit of docs/batch.md) read as a stream, into a scratch database {@code pmedia_batch_bench} migrated
 * with the service's own migrations. Prints rows per second, and the peak RSS and heap of the process, sampled every
 * 200 ms: run it with the service's heap ({@code -Xmx384m}, as ./pmedia runs it) to show the rows need no more.
 * {@code bench/batch/ingest.sh [rows]} builds and runs it; PMEDIA_DB_HOST/PORT/USER/PASSWORD name the server.
 * <p>
 * {@code links} (second argument; issue 37): the task is rendered on view, and once its rows are stored its output
 * file is written by {@link OutputPass} as the service writes it (a share link a row, the rows' pages into the outbox
 * 200 rows an event; no relay runs here, so the events stay in the outbox and are counted): rows per second of that
 * pass, the events' size, and the peak RSS and heap of both phases.
 */
public final class IngestionBench {

    private IngestionBench() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        boolean links = args.length > 1 && args[1].equals("links");
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
            run(dataSource, file, rows, links);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void run(PGSimpleDataSource dataSource, Path file, int rows, boolean links) throws Exception {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());
        EventPublisher publisher = new EventPublisher(new EventCodec(mapper), "batch-bench");
        RowStreams streams = new RowStreams(dataSource, publisher);
        FileIngest ingest = new FileIngest(streams,
                mapper.copy().setSerializationInclusion(JsonInclude.Include.NON_EMPTY).writer(),
                new InputFile.Limits(268_435_456L, 100, 10_000),
                task -> new BatchStatusChanged(task.clientId, task.id, task.campaignId, task.templateId, task.status(),
                        null, task.totalCount, task.processed, task.message, task.dueAt, null));
        BatchTask task = task(rows);
        if (links) {
            task.render = RenderMode.ON_VIEW.wire();
            task.shareKey = new byte[32];
            new java.security.SecureRandom().nextBytes(task.shareKey);
        }
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
        if (links) {
            links(dataSource, mapper, task);
        }
    }

    /** The output pass of the on-view task just read: its output file and its rows' pages, timed. */
    private static void links(PGSimpleDataSource dataSource, ObjectMapper mapper, BatchTask task)
            throws Exception {
        // the service's pool (Agroal): each page event is published on a connection of its own, taken from the pool
        AgroalDataSource pool = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(connections -> connections.maxSize(4)
                        .connectionFactoryConfiguration(factory -> factory.jdbcUrl(dataSource.getUrl())
                                .principal(new NamePrincipal(dataSource.getUser()))
                                .credential(new SimplePassword(dataSource.getPassword())))));
        RowStreams pooled = new RowStreams(pool, new EventPublisher(new EventCodec(mapper), "batch-bench"));
        OutputPass pass = new OutputPass(pooled, new ObjectStore(new BenchStorage()), mapper,
                "https://pmedia.example");
        Path output = Files.createTempFile("pmedia-batch-bench-output-", ".csv");
        AtomicLong peakHeap = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> peakHeap.accumulateAndGet(
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max), 0, 200,
                TimeUnit.MILLISECONDS);
        long started = System.nanoTime();
        long cpuBefore = cpuNanos();
        try {
            pass.write(task, mapper.readTree(task.template), Instant.now().plus(Duration.ofDays(90)), output);
            double seconds = (System.nanoTime() - started) / 1e9;
            double cpu = (cpuNanos() - cpuBefore) / 1e9;
            long events;
            long bytes;
            try (Connection db = dataSource.getConnection();
                    PreparedStatement count = db.prepareStatement(
                            "SELECT count(*), coalesce(sum(octet_length(payload)), 0) FROM outbox_event"
                                    + " WHERE payload LIKE '%io.pmedia.video.shared%'");
                    ResultSet result = count.executeQuery()) {
                result.next();
                events = result.getLong(1);
                bytes = result.getLong(2);
            }
            long lines;
            try (var read = Files.lines(output)) {
                lines = read.filter(line -> line.contains("/v/")).count();
            }
            System.out.printf(Locale.ROOT, """
                    links out (the output pass of the on-view task, %s)
                    file: %,d share URLs, %.1f MB
                    events: %,d SharedVideo events into the outbox, %.1f MB (%.0f bytes a row)
                    time: %.1f s, %,.0f rows/s; CPU of this process %.1f s, %.1f us a row (on a shared machine the
                          CPU a row costs is the steadier figure)
                    heap: peak used %d MB
                    RSS:  peak %d MB (VmHWM, both phases)
                    """, OutputPass.class.getSimpleName(), lines, Files.size(output) / 1e6, events, bytes / 1e6,
                    (double) bytes / task.totalCount, seconds, task.totalCount / seconds, cpu,
                    cpu * 1e6 / task.totalCount, peakHeap.get() >> 20,
                    status("VmHWM") >> 10);
        } finally {
            sampler.shutdownNow();
            pool.close();
            Files.deleteIfExists(output);
        }
    }

    /** CPU time this process has used (every thread), in nanoseconds. */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** A store nobody dials: an on-view task's rows have no video to name. */
    private static final class BenchStorage implements StorageConfig {
        @Override
        public Optional<URI> endpoint() {
            return Optional.of(URI.create("http://127.0.0.1:9"));
        }

        @Override
        public String bucket() {
            return "pmedia";
        }

        @Override
        public String region() {
            return "us-east-1";
        }

        @Override
        public String accessKey() {
            return "bench";
        }

        @Override
        public String secretKey() {
            return "bench";
        }

        @Override
        public boolean pathStyle() {
            return true;
        }

        @Override
        public Duration presignTtl() {
            return Duration.ofHours(1);
        }

        @Override
        public Optional<String> publicBaseUrl() {
            return Optional.empty();
        }

        @Override
        public boolean createBucket() {
            return false;
        }
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
                {"name": "Greeting", "use-case-id": "greeting", "canvas": {"width": 1280, "height": 720, "fps": 30},
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
