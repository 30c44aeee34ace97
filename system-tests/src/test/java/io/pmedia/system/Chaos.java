package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * What every fault scenario of {@code ./pmedia chaos} shares: the size it runs at, acting on one component of the
 * local stack through {@code ./pmedia kill|start|stop}, a webhook receiver that counts pushes, and the one result line
 * each scenario prints ({@code docs/reliability.md}).
 */
final class Chaos {

    static final ObjectMapper JSON = new ObjectMapper();

    private Chaos() {
    }

    /** {@code quick} (a few requests, seconds of outage; what {@code ./pmedia test} runs) or {@code full}. */
    static boolean quick() {
        return "quick".equals(System.getProperty("chaos.size", "full"));
    }

    /** {@code quickValue} in a quick run, else {@code fullValue}. */
    static int size(int quickValue, int fullValue) {
        return quick() ? quickValue : fullValue;
    }

    static Duration size(Duration quickValue, Duration fullValue) {
        return quick() ? quickValue : fullValue;
    }

    /** Runs {@code ./pmedia VERB NAME [ARGS]} at the repository root and fails on a non-zero exit; its output. */
    static String pmedia(String... args) {
        return pmedia(Map.of(), args);
    }

    /** The process id in the component's PID file; empty when it has none (or is writing it now). */
    static OptionalLong pid(String name) {
        Path pidFile = root().resolve(".pmedia/run/" + name + ".pid");
        try {
            String pid = Files.readString(pidFile).strip();
            return pid.matches("[0-9]+") ? OptionalLong.of(Long.parseLong(pid)) : OptionalLong.empty();
        } catch (NoSuchFileException e) {
            return OptionalLong.empty(); // not started, or stopped between a look and the read
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A variable of the environment the component's process was started with ({@code /proc/PID/environ}); empty when
     * the component does not run or was started without it.
     */
    static Optional<String> environmentOf(String name, String key) {
        OptionalLong pid = pid(name);
        if (pid.isEmpty()) {
            return Optional.empty();
        }
        Path environ = Path.of("/proc", Long.toString(pid.getAsLong()), "environ");
        if (!Files.isReadable(environ)) {
            return Optional.empty();
        }
        String prefix = key + "=";
        try {
            return Arrays.stream(new String(Files.readAllBytes(environ), StandardCharsets.UTF_8).split("\0"))
                    .filter(entry -> entry.startsWith(prefix)).map(entry -> entry.substring(prefix.length()))
                    .findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the component runs now ({@code ./pmedia status} shows it up). */
    static boolean running(String name) {
        return pmedia("status").lines().anyMatch(line -> line.matches(Pattern.quote(name) + " +up .*"));
    }

    /** The same with extra environment (it reaches a process the verb starts). */
    static String pmedia(Map<String, String> environment, String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "./pmedia";
        System.arraycopy(args, 0, command, 1, args.length);
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(root().toFile()).redirectErrorStream(true);
            builder.environment().putAll(environment);
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(300, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
            assertThat(process.exitValue()).as(String.join(" ", command) + ": " + output).isZero();
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Path root() {
        return Path.of(System.getProperty("pmedia.root", "..")).toAbsolutePath().normalize();
    }

    /**
     * Prints the scenario's line and keeps it in {@code system-tests/target/chaos-results.txt}:
     * {@code scenario: N requests, N ended, N pushed, 0 lost, 0 duplicated, recovery X s}.
     */
    static String report(String scenario, int requests, int ended, int pushed, int lost, int duplicated,
            double recoverySeconds, String extra) {
        String line = String.format(Locale.ROOT, "%s: %d requests, %d ended, %d pushed, %d lost, %d duplicated, "
                + "recovery %.1f s%s", scenario, requests, ended, pushed, lost, duplicated, recoverySeconds,
                extra == null || extra.isEmpty() ? "" : " (" + extra + ")");
        System.out.println(line);
        try {
            Files.writeString(Path.of("target/chaos-results.txt"), line + System.lineSeparator(),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return line;
    }

    /**
     * A vendor's webhook endpoint: answers 204 to every push and counts them by webhook-id (a retry keeps its id)
     * and by client-request-id (two different pushes for one request would be a duplicate).
     */
    static final class PushReceiver implements AutoCloseable {

        private final HttpServer server;
        private final Map<String, AtomicInteger> byWebhookId = new ConcurrentHashMap<>();
        private final Map<String, Set<String>> webhookIdsByRequest = new ConcurrentHashMap<>();

        PushReceiver() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
            server.createContext("/", exchange -> {
                String id = exchange.getRequestHeaders().getFirst("webhook-id");
                byte[] body = exchange.getRequestBody().readAllBytes();
                if (id != null) {
                    byWebhookId.computeIfAbsent(id, ignored -> new AtomicInteger()).incrementAndGet();
                    JsonNode push = JSON.readTree(body);
                    String request = push.path("client-request-id").asText("");
                    webhookIdsByRequest.computeIfAbsent(request, ignored -> ConcurrentHashMap.newKeySet()).add(id);
                }
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/push";
        }

        /** Distinct pushes (webhook-ids) received. */
        int distinct() {
            return byWebhookId.size();
        }

        /** Receipts of a webhook-id already received (retries the receiver dedupes; not a loss, not a duplicate). */
        int redelivered() {
            return byWebhookId.values().stream().mapToInt(count -> count.get() - 1).sum();
        }

        /** Requests that got more than one distinct push. */
        int requestsPushedTwice() {
            return (int) webhookIdsByRequest.values().stream().filter(ids -> ids.size() > 1).count();
        }

        /** Whether {@code clientRequestId} got a push. */
        boolean pushed(String clientRequestId) {
            return webhookIdsByRequest.containsKey(clientRequestId);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
