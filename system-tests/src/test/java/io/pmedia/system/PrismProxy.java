package io.pmedia.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.testing.Patience;

/**
 * Stoplight Prism (from build/node, installed by ./pmedia test) as a validating proxy in front of the gateway: it
 * forwards every call and reports in the {@code sl-violations} header where a request or an answer departs from
 * docs/openapi.yaml (types, enums, nullability, required fields, undocumented status codes).
 */
final class PrismProxy implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final Path log;

    private PrismProxy(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static PrismProxy start() {
        Path root = Path.of(System.getProperty("pmedia.root", "..")).toAbsolutePath().normalize();
        Path prism = root.resolve("build/node/node_modules/.bin/prism");
        if (!Files.isExecutable(prism)) {
            throw new IllegalStateException(
                    prism + " is missing: ./pmedia test installs it (npm ci --prefix build/node)");
        }
        try {
            int port;
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            Path log = Files.createDirectories(Path.of("target")).resolve("prism.log");
            Process process = new ProcessBuilder(prism.toString(), "proxy", root.resolve("docs/openapi.yaml")
                    .toString(), Stack.gateway(), "--host", "127.0.0.1", "--port", Integer.toString(port),
                    "--errors", "false")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            PrismProxy proxy = new PrismProxy(process, port, log);
            Patience.await().pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("prism ended: " + Files.readString(log));
                }
                try (Socket ignored = new Socket("127.0.0.1", port)) {
                    return true;
                } catch (IOException e) {
                    return false;
                }
            });
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** The violations of one {@code sl-violations} header: "response body.status: must be equal to ..." */
    static List<String> violations(String header, boolean responseOnly) {
        List<String> found = new ArrayList<>();
        if (header == null || header.isBlank()) {
            return found;
        }
        try {
            for (JsonNode violation : JSON.readTree(header)) {
                List<String> location = new ArrayList<>();
                violation.path("location").forEach(part -> location.add(part.asText()));
                if (responseOnly && (location.isEmpty() || !location.get(0).equals("response"))) {
                    continue;
                }
                found.add(String.join(".", location) + ": " + violation.path("message").asText());
            }
        } catch (IOException e) {
            found.add("unreadable sl-violations header: " + header);
        }
        return found;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Path log() {
        return log;
    }
}
