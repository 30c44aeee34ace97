package io.pmedia.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Plays the gateway's internal client registry on 127.0.0.1 for a service under test, and sets
 * {@code pmedia.gateway.internal-url} and {@code pmedia.internal-token} to reach it:
 * <ul>
 * <li>{@code GET /internal/clients/{id}/active}: 204 for every client id unless a test {@link #delete deleted} it
 * (then 404), so tests need not register the clients they make tokens for;</li>
 * <li>{@code GET /internal/clients/{id}}: the webhook registration a test {@link #register registered}, else 404;</li>
 * <li>{@code GET /internal/clients/{id}/sharing}: the share page settings a test put
 * ({@code PUT /control/sharing/{id}}), else the defaults.</li>
 * <li>{@code PUT /internal/clients/{id}/webhook} and {@code POST /internal/clients/{id}/rotate-webhook-secret}: change
 * a registered client's endpoint (an http(s) URL, known event types; 400 otherwise, as the gateway's message says)
 * and its secret (the previous one kept for 24 hours), as the gateway's registry does.</li>
 * </ul>
 * Both need the internal token, and both answer 503 while the test has the gateway {@link #down}. Tests drive the
 * stub over HTTP (its control paths), so it works whichever class loader a test runs in.
 */
public class GatewayStub implements QuarkusTestResourceLifecycleManager {

    public static final String TOKEN = "test-internal-token";
    private static final String PORT_PROPERTY = "pmediatest.gateway.port";
    private static final String CLIENTS = "/internal/clients/";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private HttpServer server;
    private ExecutorService executor;

    private final Map<String, String> registrations = new ConcurrentHashMap<>();
    /** Share page settings by client id (JSON); the platform's defaults for any other client. */
    private final Map<String, String> sharing = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> activeChecks = new ConcurrentHashMap<>();
    private final AtomicBoolean down = new AtomicBoolean();

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        executor = Executors.newFixedThreadPool(4);
        server.setExecutor(executor);
        server.createContext(CLIENTS, this::internalApi);
        server.createContext("/control/", this::control);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        System.setProperty(PORT_PROPERTY, Integer.toString(server.getAddress().getPort()));
        return Map.of("pmedia.gateway.internal-url", url, "pmedia.internal-token", TOKEN);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
        }
    }

    private void internalApi(HttpExchange exchange) throws IOException {
        if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            answer(exchange, 401, error("internal token required", "UNAUTHORIZED"));
            return;
        }
        String rest = exchange.getRequestURI().getPath().substring(CLIENTS.length());
        if (rest.endsWith("/webhook") || rest.endsWith("/rotate-webhook-secret")) {
            change(exchange, rest);
            return;
        }
        if (rest.endsWith("/sharing")) {
            String client = rest.substring(0, rest.length() - "/sharing".length());
            if (down.get()) {
                answer(exchange, 503, error("down", "SERVICE_UNAVAILABLE"));
            } else if (deleted.contains(client)) {
                answer(exchange, 404, error("client " + client + " not found", "NOT_FOUND"));
            } else {
                answer(exchange, 200, sharing.getOrDefault(client,
                        "{\"retention-days\":null,\"logo-url\":null,\"color\":null,\"embed-origins\":[]}"));
            }
            return;
        }
        boolean activeCheck = rest.endsWith("/active");
        String id = activeCheck ? rest.substring(0, rest.length() - "/active".length()) : rest;
        (activeCheck ? activeChecks : lookups).computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
        AtomicInteger failing = activeCheck ? null : failuresLeft.get(id);
        if (down.get() || failing != null && failing.getAndDecrement() > 0) {
            answer(exchange, 503, error("down", "SERVICE_UNAVAILABLE"));
        } else if (deleted.contains(id)) {
            answer(exchange, 404, error("client " + id + " not found", "NOT_FOUND"));
        } else if (activeCheck) {
            answer(exchange, 204, null);
        } else {
            String registration = registrations.get(id);
            answer(exchange, registration == null ? 404 : 200,
                    registration == null ? error("client " + id + " not found", "NOT_FOUND") : registration);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> EVENT_TYPES = List.of("video.push", "batch.task.ended", "tryon.request.ended",
            "video.viewed", "video.completed", "cta.clicked", "video.rendered", "video.render-failed");

    /** The vendor's endpoint changes, which the notifier forwards to the registry. */
    private void change(HttpExchange exchange, String rest) throws IOException {
        String id = rest.substring(0, rest.indexOf('/'));
        String registration = registrations.get(id);
        if (down.get()) {
            answer(exchange, 503, error("down", "SERVICE_UNAVAILABLE"));
            return;
        }
        if (registration == null || deleted.contains(id)) {
            answer(exchange, 404, error("client " + id + " not found", "NOT_FOUND"));
            return;
        }
        ObjectNode client = (ObjectNode) JSON.readTree(registration);
        if (rest.endsWith("/webhook") && "PUT".equals(exchange.getRequestMethod())) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            String url = body.path("url").isTextual() ? body.path("url").asText() : null;
            if (url != null && !url.matches("https?://[^@/]+(/.*)?")) {
                answer(exchange, 400, error("field 'url': only http and https URLs without credentials",
                        "VALIDATION_ERROR"));
                return;
            }
            ArrayNode types = JSON.createArrayNode();
            if (body.path("event-types").isArray()) {
                for (int i = 0; i < body.path("event-types").size(); i++) {
                    String type = body.path("event-types").get(i).asText();
                    if (!EVENT_TYPES.contains(type)) {
                        answer(exchange, 400, error("field 'event-types[" + i + "]' must be one of "
                                + String.join(", ", EVENT_TYPES), "VALIDATION_ERROR"));
                        return;
                    }
                    types.add(type);
                }
            } else {
                types.add("video.push");
            }
            client.put("webhook-url", url);
            client.set("event-types", types);
            registrations.put(id, JSON.writeValueAsString(client));
            answer(exchange, 200, JSON.writeValueAsString(client));
        } else if (rest.endsWith("/rotate-webhook-secret") && "POST".equals(exchange.getRequestMethod())) {
            byte[] key = new byte[24];
            new SecureRandom().nextBytes(key);
            String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
            Instant until = Instant.now().plus(Duration.ofHours(24));
            ArrayNode secrets = JSON.createArrayNode();
            secrets.addObject().put("secret", secret).putNull("expires-at");
            JsonNode previous = client.path("webhook-secrets").path(0);
            if (!previous.isMissingNode()) {
                secrets.addObject().put("secret", previous.path("secret").asText()).put("expires-at", until.toString());
            }
            client.set("webhook-secrets", secrets);
            registrations.put(id, JSON.writeValueAsString(client));
            answer(exchange, 200, JSON.writeValueAsString(JSON.createObjectNode().put("client-id", id)
                    .put("webhook-secret", secret).put("previous-valid-until", until.toString())));
        } else {
            answer(exchange, 405, error("method not allowed", "METHOD_NOT_ALLOWED"));
        }
    }

    /** {@code PUT|DELETE /control/clients/{id}}, {@code GET /control/lookups|active-checks/{id}}, {@code POST /control/down|up}. */
    private void control(HttpExchange exchange) throws IOException {
        String[] path = exchange.getRequestURI().getPath().substring("/control/".length()).split("/");
        String id = path.length > 1 ? path[1] : "";
        switch (exchange.getRequestMethod() + " " + path[0]) {
            case "PUT clients" -> {
                registrations.put(id, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                String query = exchange.getRequestURI().getQuery();
                failuresLeft.put(id, new AtomicInteger(query != null && query.startsWith("fail=")
                        ? Integer.parseInt(query.substring(5))
                        : 0));
                deleted.remove(id);
                answer(exchange, 204, null);
            }
            case "PUT sharing" -> {
                sharing.put(id, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                answer(exchange, 204, null);
            }
            case "DELETE clients" -> {
                registrations.remove(id);
                deleted.add(id);
                answer(exchange, 204, null);
            }
            case "GET lookups" -> answer(exchange, 200, Integer.toString(count(lookups, id)));
            case "GET active-checks" -> answer(exchange, 200, Integer.toString(count(activeChecks, id)));
            case "POST down" -> {
                down.set(true);
                answer(exchange, 204, null);
            }
            case "POST up" -> {
                down.set(false);
                answer(exchange, 204, null);
            }
            default -> answer(exchange, 404, error("no control " + path[0], "NOT_FOUND"));
        }
    }

    private static int count(Map<String, AtomicInteger> counts, String id) {
        AtomicInteger count = counts.get(id);
        return count == null ? 0 : count.get();
    }

    /** A webhook signing secret as the gateway lists it; {@code expiresAt} null: the current one. */
    public record Secret(String secret, Instant expiresAt) {

        public static Secret current(String secret) {
            return new Secret(secret, null);
        }
    }

    /** Registers (or replaces) a client's webhook; the client is active again if it was deleted. */
    public static void register(UUID clientId, String webhookUrl, Secret... secrets) {
        registerFailingFirst(0, clientId, webhookUrl, secrets);
    }

    /** Registers a client whose first {@code failures} registration lookups are answered 503 (the gateway is down). */
    public static void registerFailingFirst(int failures, UUID clientId, String webhookUrl, Secret... secrets) {
        List<String> list = new ArrayList<>();
        for (Secret secret : secrets) {
            list.add("{\"secret\":\"" + secret.secret() + "\",\"expires-at\":"
                    + (secret.expiresAt() == null ? "null" : "\"" + secret.expiresAt() + "\"") + "}");
        }
        String body = "{\"client-id\":\"" + clientId + "\",\"name\":\"Test Vendor\",\"webhook-url\":"
                + (webhookUrl == null ? "null" : "\"" + webhookUrl + "\"") + ",\"webhook-secrets\":["
                + String.join(",", list) + "]}";
        call(HttpRequest.newBuilder(uri("/control/clients/" + clientId + "?fail=" + failures))
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Deletes a client, as {@code DELETE /admin/clients/{id}} on the gateway would: both endpoints answer 404. */
    public static void delete(UUID clientId) {
        call(HttpRequest.newBuilder(uri("/control/clients/" + clientId)).DELETE());
    }

    /** The gateway stops answering (503 to everything) until {@link #up()}. */
    public static void down() {
        call(HttpRequest.newBuilder(uri("/control/down")).POST(HttpRequest.BodyPublishers.noBody()));
    }

    public static void up() {
        call(HttpRequest.newBuilder(uri("/control/up")).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** How many times the service looked up the client's webhook registration. */
    public static int lookups(UUID clientId) {
        return Integer.parseInt(call(HttpRequest.newBuilder(uri("/control/lookups/" + clientId)).GET()));
    }

    /** How many times the service asked whether the client is still active. */
    public static int activeChecks(UUID clientId) {
        return Integer.parseInt(call(HttpRequest.newBuilder(uri("/control/active-checks/" + clientId)).GET()));
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

    private static String error(String message, String code) {
        return "{\"error\":true,\"message\":\"" + message + "\",\"code\":\"" + code + "\",\"timestamp\":\""
                + Instant.now() + "\"}";
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
