package io.pmedia.batch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Stands in for media-service's {@code GET /templates/{templateId}} over real HTTP: answers the templates a test
 * registered (for any bearer token; the real endpoint's client scoping is media-service's test), 404 otherwise, and
 * records the Authorization header it was given.
 */
public class TemplateEndpoint implements QuarkusTestResourceLifecycleManager {

    /** The demo template's shape: requires {@code name}, uses {@code offer} and one image when given. */
    public static final UUID GREETING = UUID.fromString("6f1c1e2a-0000-4000-8000-000000000001");
    /** A template whose read media-service answers 503, as when its database is away. */
    public static final UUID UNAVAILABLE = UUID.fromString("6f1c1e2a-0000-4000-8000-0000000005e3");
    /** A template whose read media-service never answers (a hung instance): the answer comes after a minute. */
    public static final UUID HANGING = UUID.fromString("6f1c1e2a-0000-4000-8000-00000000dead");

    static final Map<UUID, String> TEMPLATES = new ConcurrentHashMap<>();
    static volatile String lastAuthorization;
    private static HttpServer server;

    @Override
    public synchronized Map<String, String> start() {
        if (server == null) {
            TEMPLATES.put(GREETING, """
                    {"template-id": "%s", "use-case-id": "greeting", "version": 3,
                     "definition": {"use-case-id": "greeting", "name": "Greeting",
                                    "canvas": {"width": 320, "height": 180, "fps": 25},
                                    "fields": [{"name": "name", "required": true}, {"name": "offer"}],
                                    "assets": {"images": [{"name": "photo"}]},
                                    "segments": [{"id": "hello", "duration": 1,
                                                  "layers": [{"type": "text", "text": "Hi {{name}}"}]}]}}"""
                    .formatted(GREETING));
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            server.createContext("/templates/", exchange -> {
                try (exchange) {
                    lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
                    String id = exchange.getRequestURI().getPath().substring("/templates/".length());
                    if (id.equals(UNAVAILABLE.toString())) {
                        exchange.sendResponseHeaders(503, -1);
                        return;
                    }
                    if (id.equals(HANGING.toString())) {
                        try {
                            Thread.sleep(60_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    String body;
                    try {
                        body = TEMPLATES.get(UUID.fromString(id));
                    } catch (IllegalArgumentException e) {
                        body = null;
                    }
                    byte[] bytes = (body == null ? "{\"error\":true,\"code\":\"NOT_FOUND\"}" : body)
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
                    exchange.getResponseBody().write(bytes);
                }
            });
            // A hanging answer holds its own thread, never the others'.
            server.setExecutor(Executors.newCachedThreadPool(work -> {
                Thread thread = new Thread(work, "template-endpoint");
                thread.setDaemon(true);
                return thread;
            }));
            server.start();
        }
        return Map.of("quarkus.rest-client.media.url", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        // Shared by every test class of the JVM.
    }
}
