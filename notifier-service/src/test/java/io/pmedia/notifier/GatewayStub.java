package io.pmedia.notifier;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Plays the gateway's internal client registry ({@code GET /internal/clients/{id}} with the internal token) on
 * 127.0.0.1. Tests register clients over HTTP ({@code PUT} the JSON the gateway would answer, {@code DELETE}), so the
 * stub works whichever class loader a test runs in. {@code GET /stats/{id}} tells how often a client was looked up.
 */
public class GatewayStub implements QuarkusTestResourceLifecycleManager {

    static final String TOKEN = "test-internal-token";
    private static final String PORT_PROPERTY = "pmediatest.gateway.port";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        Map<String, String> clients = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/internal/clients/", exchange -> {
            String id = exchange.getRequestURI().getPath().substring("/internal/clients/".length());
            switch (exchange.getRequestMethod()) {
                case "PUT" -> {
                    clients.put(id, read(exchange.getRequestBody()));
                    String query = exchange.getRequestURI().getQuery();
                    failures.put(id, new AtomicInteger(query != null && query.startsWith("fail=")
                            ? Integer.parseInt(query.substring(5))
                            : 0));
                    answer(exchange, 204, null);
                }
                case "DELETE" -> {
                    clients.remove(id);
                    answer(exchange, 204, null);
                }
                default -> {
                    if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                        answer(exchange, 401, "{\"error\":true,\"message\":\"internal token required\","
                                + "\"code\":\"UNAUTHORIZED\",\"timestamp\":\"" + Instant.now() + "\"}");
                        return;
                    }
                    lookups.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
                    AtomicInteger failing = failures.get(id);
                    if (failing != null && failing.getAndDecrement() > 0) {
                        answer(exchange, 503, "{\"error\":true,\"message\":\"down\",\"code\":\"SERVICE_UNAVAILABLE\","
                                + "\"timestamp\":\"" + Instant.now() + "\"}");
                        return;
                    }
                    String client = clients.get(id);
                    if (client == null) {
                        answer(exchange, 404, "{\"error\":true,\"message\":\"no client\",\"code\":\"NOT_FOUND\","
                                + "\"timestamp\":\"" + Instant.now() + "\"}");
                    } else {
                        answer(exchange, 200, client);
                    }
                }
            }
        });
        server.createContext("/stats/", exchange -> {
            String id = exchange.getRequestURI().getPath().substring("/stats/".length());
            AtomicInteger count = lookups.get(id);
            answer(exchange, 200, Integer.toString(count == null ? 0 : count.get()));
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        System.setProperty(PORT_PROPERTY, Integer.toString(server.getAddress().getPort()));
        return Map.of("pmedia.gateway.internal-url", url, "pmedia.internal-token", TOKEN);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A secret as the gateway lists it. */
    public record Secret(String secret, Instant expiresAt) {

        public static Secret current(String secret) {
            return new Secret(secret, null);
        }
    }

    /** Registers (or replaces) a client in the stub registry. */
    public static void register(UUID clientId, String webhookUrl, Secret... secrets) {
        registerFailingFirst(0, clientId, webhookUrl, secrets);
    }

    /** Registers a client whose first {@code failures} lookups are answered 503 (the gateway is down). */
    public static void registerFailingFirst(int failures, UUID clientId, String webhookUrl, Secret... secrets) {
        List<String> list = new ArrayList<>();
        for (Secret secret : secrets) {
            list.add("{\"secret\":\"" + secret.secret() + "\",\"expires-at\":"
                    + (secret.expiresAt() == null ? "null" : "\"" + secret.expiresAt() + "\"") + "}");
        }
        String body = "{\"client-id\":\"" + clientId + "\",\"name\":\"Test Vendor\",\"webhook-url\":"
                + (webhookUrl == null ? "null" : "\"" + webhookUrl + "\"") + ",\"webhook-secrets\":["
                + String.join(",", list) + "]}";
        call(HttpRequest.newBuilder(uri("/internal/clients/" + clientId + "?fail=" + failures))
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    public static void remove(UUID clientId) {
        call(HttpRequest.newBuilder(uri("/internal/clients/" + clientId)).DELETE());
    }

    /** How many times the notifier looked the client up. */
    public static int lookups(UUID clientId) {
        return Integer.parseInt(call(HttpRequest.newBuilder(uri("/stats/" + clientId)).GET()));
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + System.getProperty(PORT_PROPERTY) + path);
    }

    private static String call(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException("gateway stub answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }
}
