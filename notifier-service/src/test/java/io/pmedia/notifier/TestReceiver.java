package io.pmedia.notifier;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

/**
 * A vendor's webhook endpoint on 127.0.0.1 for tests: records every request it gets (headers, exact body, time) and
 * answers from a script (then with the default answer), or hangs until it is closed.
 */
public final class TestReceiver implements AutoCloseable {

    /** One request as it arrived. */
    public record Received(String path, Map<String, String> headers, String body, Instant at) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** One scripted answer. */
    public record Answer(int status, Map<String, String> headers, String body, boolean hang) {

        public static Answer status(int status) {
            return new Answer(status, Map.of(), "", false);
        }

        public static Answer status(int status, String body) {
            return new Answer(status, Map.of(), body, false);
        }

        public static Answer withHeader(int status, String name, String value) {
            return new Answer(status, Map.of(name, value), "", false);
        }

        public static Answer hanging() {
            return new Answer(0, Map.of(), "", true);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Deque<Answer> script = new ArrayDeque<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Answer fallback;
    private volatile java.util.function.Consumer<Received> onRequest = request -> {
    };

    private TestReceiver(Answer fallback) throws IOException {
        this.fallback = fallback;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    String.join(",", values)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Received request = new Received(exchange.getRequestURI().getPath(), headers, body, Instant.now());
            received.add(request);
            onRequest.accept(request);
            Answer answer;
            synchronized (script) {
                answer = script.isEmpty() ? this.fallback : script.pollFirst();
            }
            if (answer.hang()) {
                try {
                    closed.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
                return;
            }
            answer.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
    }

    /** A receiver answering {@code 202 {"status":"202"}} unless scripted otherwise. */
    public static TestReceiver accepting() {
        return answering(Answer.status(202, "{\"status\":\"202\"}"));
    }

    public static TestReceiver answering(Answer fallback) {
        try {
            return new TestReceiver(fallback);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers these first, in order, then the fallback. */
    public TestReceiver then(Answer... answers) {
        synchronized (script) {
            script.addAll(List.of(answers));
        }
        return this;
    }

    /** Runs {@code action} on every request, before it is answered. */
    public TestReceiver onRequest(java.util.function.Consumer<Received> action) {
        this.onRequest = action;
        return this;
    }

    public void answerFromNowOn(Answer answer) {
        this.fallback = answer;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/video-push-endpoint";
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    /** Requests whose body mentions {@code text} (a client-request-id, typically). */
    public List<Received> receivedWith(String text) {
        return received.stream().filter(r -> r.body().contains(text)).toList();
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
