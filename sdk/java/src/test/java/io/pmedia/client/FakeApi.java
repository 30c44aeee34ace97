package io.pmedia.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;

/** A local HTTP double of the API for the SDK's unit tests; it records every request. */
final class FakeApi implements AutoCloseable {

    /** One request as the double saw it. */
    static final class Seen {
        final String method;
        final String path;
        final Headers headers;
        final String body;
        final long at = System.nanoTime();

        Seen(String method, String path, Headers headers, String body) {
            this.method = method;
            this.path = path;
            this.headers = headers;
            this.body = body;
        }

        String header(String name) {
            return headers.getFirst(name);
        }
    }

    /** An answer: status, JSON body, extra headers. */
    static final class Answer {
        final int status;
        final String json;
        final Map<String, String> headers;

        Answer(int status, String json, Map<String, String> headers) {
            this.status = status;
            this.json = json;
            this.headers = headers;
        }
    }

    final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    FakeApi(Function<Seen, Answer> handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Seen request = new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders(), body);
            seen.add(request);
            Answer answer = handler.apply(request);
            byte[] bytes = answer.json == null ? new byte[0] : answer.json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            answer.headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            exchange.sendResponseHeaders(answer.status, bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    long count(String path) {
        return seen.stream().filter(request -> request.path.equals(path)).count();
    }

    static Answer json(int status, String json) {
        return new Answer(status, json, Map.of());
    }

    static Answer token(long n, int expiresIn) {
        return json(200, "{\"access_token\":\"token-" + n + "\",\"token_type\":\"Bearer\",\"expires_in\":" + expiresIn
                + "}");
    }

    static Answer error(int status, String code, String message, Map<String, String> headers) {
        return new Answer(status, "{\"error\":true,\"message\":\"" + message + "\",\"code\":\"" + code
                + "\",\"timestamp\":\"2026-11-27T08:00:00Z\"}", headers);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
