package io.pmedia.bench.webhooks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import com.sun.net.httpserver.HttpServer;

import io.pmedia.testing.KafkaTestResource;
import io.pmedia.testing.PostgresTestResource;

/**
 * The webhook benchmark (docs/performance.md, "Webhooks"). Starts a Kafka broker in this JVM, a receiver and a
 * stand-in for the gateway's client registry on 127.0.0.1, and the packaged notifier-service as its own process
 * against its own database; then publishes media status events the way media-service's outbox relay does and
 * measures, at the receiver:
 * <ul>
 * <li><b>burst</b>: every event published at once; deliveries per second from the first publish to the last receipt;
 * <li><b>paced</b>: events published at a steady rate below capacity; latency from the moment each event was handed
 * to the Kafka producer (just before its commit to the log) to the moment the receiver had the push.
 * </ul>
 * Every push is counted once per event: duplicates and missing pushes are reported.
 */
public final class WebhookBench {

    private static final String TOPIC = "pmedia.media.status";
    private static final String TOKEN = "bench-internal-token";

    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Map<String, Long> receivedAt = new ConcurrentHashMap<>();
    private final AtomicInteger duplicates = new AtomicInteger();
    private final AtomicInteger received = new AtomicInteger();

    public static void main(String[] args) throws Exception {
        // The broker in this JVM logs through slf4j -> JBoss LogManager: warnings only, or it formats (and, without
        // the LogManager installed, silently drops) trace messages on every request.
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        Path jar = Path.of(args[0]);
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        new WebhookBench().run(jar, events, rate);
    }

    private void run(Path jar, int events, int rate) throws Exception {
        log("starting a Kafka broker in this JVM");
        String bootstrap = KafkaTestResource.bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        HttpServer receiver = receiver();
        UUID client = UUID.randomUUID();
        String secret = "whsec_" + Base64.getEncoder().encodeToString(UUID.randomUUID().toString().getBytes());
        String receiverUrl = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/video-push-endpoint";
        HttpServer gateway = gateway(client, receiverUrl, secret);
        int port = Integer.parseInt(System.getenv().getOrDefault("PMEDIA_BENCH_PORT", "18085"));
        Process notifier = startNotifier(jar, bootstrap, gateway, port);
        try (KafkaProducer<String, String> producer = producer(bootstrap)) {
            waitReady(port, notifier);
            // A long-running service is JIT-compiled; the first thousands of deliveries of a fresh JVM are not.
            log("warm-up: 3 x 3000 events");
            for (int round = 0; round < 3; round++) {
                measure("warm-up", producer, client, 3_000, 1_000);
            }

            long[] before = cpu(notifier);
            Result burst = measure("burst", producer, client, events, 0);
            long[] burstCpu = minus(cpu(notifier), before);
            before = cpu(notifier);
            Result paced = measure("paced", producer, client, events, rate);
            long[] pacedCpu = minus(cpu(notifier), before);

            System.out.println();
            System.out.printf("machine: %d cores, %s, Java %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("os.name"), System.getProperty("java.version"));
            System.out.printf("burst: %d events published at once -> %d pushes in %.2f s = %.0f deliveries/s"
                    + " (latency p50 %d ms, p99 %d ms)%n", events, burst.delivered(), burst.seconds(),
                    burst.delivered() / burst.seconds(), burst.p(50), burst.p(99));
            System.out.printf("  CPU per delivery: notifier %.2f ms, PostgreSQL %.2f ms, Kafka+producer+receiver"
                    + " %.2f ms%n", burstCpu[0] / (double) events, burstCpu[1] / (double) events,
                    burstCpu[2] / (double) events);
            System.out.printf("paced: %d events at %d/s -> %d pushes, %.0f deliveries/s, event-to-receipt latency"
                    + " p50 %d ms, p90 %d ms, p99 %d ms, max %d ms%n", events, rate, paced.delivered(),
                    paced.delivered() / paced.seconds(), paced.p(50), paced.p(90), paced.p(99), paced.max());
            System.out.printf("  CPU per delivery: notifier %.2f ms, PostgreSQL %.2f ms, Kafka+producer+receiver"
                    + " %.2f ms%n", pacedCpu[0] / (double) events, pacedCpu[1] / (double) events,
                    pacedCpu[2] / (double) events);
            System.out.printf("duplicates: %d, missing: %d%n", duplicates.get(),
                    burst.missing() + paced.missing());
        } finally {
            notifier.destroy();
            if (!notifier.waitFor(15, TimeUnit.SECONDS)) {
                notifier.destroyForcibly();
            }
            receiver.stop(0);
            gateway.stop(0);
        }
        System.exit(0);
    }

    record Result(int delivered, int missing, double seconds, long[] latenciesMillis) {

        long p(int percentile) {
            if (latenciesMillis.length == 0) {
                return -1;
            }
            int index = (int) Math.ceil(percentile / 100.0 * latenciesMillis.length) - 1;
            return latenciesMillis[Math.max(0, Math.min(index, latenciesMillis.length - 1))];
        }

        long max() {
            return latenciesMillis.length == 0 ? -1 : latenciesMillis[latenciesMillis.length - 1];
        }
    }

    /** Publishes {@code count} events ({@code rate} per second, or all at once when 0) and waits for the pushes. */
    private Result measure(String phase, KafkaProducer<String, String> producer, UUID client, int count, int rate)
            throws InterruptedException {
        List<String> ids = new ArrayList<>(count);
        int before = received.get();
        long start = System.nanoTime();
        // Paced: a tick every 5 ms with the events due by then (5 per tick at 1000/s), as a relay publishes them.
        int perTick = rate == 0 ? count : Math.max(1, rate / 200);
        long tick = rate == 0 ? 0 : perTick * 1_000_000_000L / rate;
        for (int i = 0; i < count; i++) {
            if (tick > 0 && i % perTick == 0) {
                long due = start + (i / perTick) * tick;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            String clientRequestId = phase + "-" + i + "-" + UUID.randomUUID();
            ids.add(clientRequestId);
            String serviceRequestId = UUID.randomUUID().toString();
            ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, serviceRequestId,
                    envelope(client, serviceRequestId, clientRequestId));
            record.headers().add("content-type",
                    "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
            sentAt.put(clientRequestId, System.nanoTime());
            producer.send(record);
        }
        producer.flush();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (received.get() - before < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        long last = 0;
        long[] latencies = new long[count];
        int delivered = 0;
        for (String id : ids) {
            Long at = receivedAt.get(id);
            if (at != null) {
                latencies[delivered++] = (at - sentAt.get(id)) / 1_000_000;
                last = Math.max(last, at);
            }
        }
        long[] measured = Arrays.copyOf(latencies, delivered);
        Arrays.sort(measured);
        double seconds = (last - start) / 1e9;
        Result result = new Result(delivered, count - delivered, seconds, measured);
        log(String.format("%s: %d/%d pushes in %.2f s, p50 %d ms, p99 %d ms", phase, delivered, count, seconds,
                result.p(50), result.p(99)));
        return result;
    }

    private static String envelope(UUID client, String serviceRequestId, String clientRequestId) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"/pmedia/media-service\","
                + "\"type\":\"io.pmedia.media.status.changed\",\"time\":\"" + Instant.now() + "\",\"subject\":\""
                + serviceRequestId + "\",\"datacontenttype\":\"application/json\",\"data\":{\"client-id\":\""
                + client + "\",\"service-request-id\":\"" + serviceRequestId + "\",\"client-request-id\":\""
                + clientRequestId + "\",\"user-id\":\"u-1\",\"customer-id\":\"c-1\",\"use-case-id\":\"greeting\","
                + "\"reference-record-id\":null,\"status\":\"SUCCESS\",\"message\":\"video ready\",\"video-url\":"
                + "\"https://cdn.example.com/" + serviceRequestId + ".mp4\",\"image-url\":\"https://cdn.example.com/"
                + serviceRequestId + ".jpg\"}}";
    }

    /** The vendor endpoint: takes the push, notes when, answers 202 at once. */
    private HttpServer receiver() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.setExecutor(Executors.newFixedThreadPool(16));
        byte[] answer = "{\"status\":\"202\"}".getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            long now = System.nanoTime();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int start = body.indexOf("\"client-request-id\":\"") + 21;
            String id = body.substring(start, body.indexOf('"', start));
            if (receivedAt.putIfAbsent(id, now) == null) {
                received.incrementAndGet();
            } else {
                duplicates.incrementAndGet();
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** The gateway's internal client registry, for the one benchmark client. */
    private static HttpServer gateway(UUID client, String url, String secret) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        byte[] body = ("{\"client-id\":\"" + client + "\",\"name\":\"Bench Vendor\",\"webhook-url\":\"" + url
                + "\",\"webhook-secrets\":[{\"secret\":\"" + secret + "\",\"expires-at\":null}]}")
                .getBytes(StandardCharsets.UTF_8);
        server.createContext("/internal/clients/", exchange -> {
            boolean ok = ("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))
                    && exchange.getRequestURI().getPath().endsWith(client.toString());
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(ok ? 200 : 404, ok ? body.length : -1);
            if (ok) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        return server;
    }

    private static Process startNotifier(Path jar, String bootstrap, HttpServer gateway, int port)
            throws IOException {
        PostgresTestResource database = new PostgresTestResource();
        database.init(Map.of("database", "pmedia_notifier_bench"));
        Map<String, String> db = database.start();
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-Xms64m", "-Xmx384m",
                "-XX:+UseSerialGC", "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.port=" + (port + 1100)));
        String extra = System.getenv("PMEDIA_BENCH_NOTIFIER_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        db.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", jar.toString()));
        Path logFile = Path.of("bench/webhooks/target/notifier.log").toAbsolutePath();
        Files.createDirectories(logFile.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(logFile.toFile());
        builder.environment().put("PMEDIA_KAFKA_BOOTSTRAP", bootstrap);
        builder.environment().put("PMEDIA_GATEWAY_INTERNAL_URL",
                "http://127.0.0.1:" + gateway.getAddress().getPort());
        builder.environment().put("PMEDIA_INTERNAL_TOKEN", TOKEN);
        builder.environment().put("PMEDIA_FETCH_ALLOWED_NETWORKS", "127.0.0.1/32");
        log("starting " + jar + " on :" + port + " (log: " + logFile + ")");
        Process process = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        return process;
    }

    private static void waitReady(int port, Process notifier) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!notifier.isAlive()) {
                throw new IllegalStateException("notifier-service exited; see bench/webhooks/target/notifier.log");
            }
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + (port + 1100) + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("notifier-service not ready within 120 s");
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        // What an outbox relay does under load: records leave in small batches, not one request each.
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    /** CPU milliseconds used so far by the notifier, by PostgreSQL's processes, and by this JVM. */
    private static long[] cpu(Process notifier) {
        long postgres = ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.contains("postgres")).orElse(false))
                .mapToLong(WebhookBench::cpuMillis).sum();
        return new long[]{cpuMillis(notifier.toHandle()), postgres, cpuMillis(ProcessHandle.current())};
    }

    private static long[] minus(long[] after, long[] before) {
        return new long[]{after[0] - before[0], after[1] - before[1], after[2] - before[2]};
    }

    private static long cpuMillis(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
    }

    private static void log(String message) {
        System.out.println("[bench] " + message);
    }
}
