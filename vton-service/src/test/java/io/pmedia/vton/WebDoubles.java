package io.pmedia.vton;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * The web a try-on meets, over real HTTP on 127.0.0.1: vendor images ({@code /img/model.png}: a 200x400 blue person
 * area on grey; {@code /img/shirt.png}: a red shirt on white; {@code /img/text}: not an image; anything else 404),
 * and a FASHN-compatible provider ({@code /fashn/v1/run}, {@code /fashn/v1/status/{id}}) that answers
 * {@code processing} once, then {@code completed} with {@code /img/provider-output.png}, or {@code failed} when the
 * garment URL contains "unloadable".
 */
public class WebDoubles implements QuarkusTestResourceLifecycleManager {

    static final String API_KEY = "fashn-test-key";
    static final Color MODEL = new Color(30, 60, 200);
    static final Color SHIRT = new Color(220, 20, 20);
    static final Color PROVIDER = new Color(20, 160, 60);

    static final List<JsonNode> runs = new CopyOnWriteArrayList<>();
    static final List<String> authorizations = new CopyOnWriteArrayList<>();
    private static final Map<String, JsonNode> predictions = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> polls = new ConcurrentHashMap<>();
    private static final AtomicInteger ids = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static HttpServer server;

    static String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public synchronized Map<String, String> start() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 32);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/img/", WebDoubles::image);
            server.createContext("/fashn/v1/", WebDoubles::provider);
            server.start();
        }
        return Map.of("pmedia.vton.fashn.base-url", base() + "/fashn/v1", "pmedia.vton.fashn.api-key", API_KEY);
    }

    @Override
    public void stop() {
        // Shared by every test class of the JVM.
    }

    private static void image(HttpExchange exchange) throws IOException {
        try (exchange) {
            String name = exchange.getRequestURI().getPath().substring("/img/".length());
            switch (name) {
                case "model.png" -> send(exchange, 200, "image/png", png(model()));
                case "shirt.png" -> send(exchange, 200, "image/png", png(shirt()));
                case "provider-output.png" -> send(exchange, 200, "image/png", png(filled(100, 150, PROVIDER)));
                case "shirt.bin" -> send(exchange, 200, "application/octet-stream", png(shirt()));
                case "junk.bin" ->
                    send(exchange, 200, "application/octet-stream", "junk".getBytes(StandardCharsets.UTF_8));
                case "text" -> send(exchange, 200, "text/plain", "hello".getBytes(StandardCharsets.UTF_8));
                default -> send(exchange, 404, "text/plain", new byte[0]);
            }
        }
    }

    private static void provider(HttpExchange exchange) throws IOException {
        try (exchange) {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            if (!("Bearer " + API_KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                json(exchange, 401, "{\"error\": {\"name\": \"UnauthorizedAccess\", \"message\": \"bad key\"}}");
                return;
            }
            String path = exchange.getRequestURI().getPath().substring("/fashn/v1/".length());
            if (path.equals("run") && exchange.getRequestMethod().equals("POST")) {
                JsonNode body = JSON.readTree(exchange.getRequestBody());
                runs.add(body);
                String id = "pred-" + ids.incrementAndGet();
                predictions.put(id, body);
                polls.put(id, new AtomicInteger());
                json(exchange, 200, "{\"id\": \"" + id + "\", \"error\": null}");
            } else if (path.startsWith("status/")) {
                String id = path.substring("status/".length());
                JsonNode run = predictions.get(id);
                if (run == null) {
                    json(exchange, 404, "{\"error\": \"not found\"}");
                } else if (polls.get(id).getAndIncrement() == 0) {
                    json(exchange, 200, "{\"id\": \"" + id + "\", \"status\": \"processing\", \"error\": null}");
                } else if (run.path("inputs").path("garment_image").asText().contains("unloadable")) {
                    json(exchange, 200, "{\"id\": \"" + id + "\", \"status\": \"failed\", \"output\": null,"
                            + " \"error\": {\"name\": \"ImageLoadError\", \"message\": \"garment image could not be"
                            + " loaded\"}}");
                } else {
                    json(exchange, 200, "{\"id\": \"" + id + "\", \"status\": \"completed\", \"output\": [\"" + base()
                            + "/img/provider-output.png\"], \"error\": null}");
                }
            } else {
                json(exchange, 404, "{\"error\": \"not found\"}");
            }
        }
    }

    static BufferedImage model() {
        BufferedImage image = filled(200, 400, Color.GRAY);
        Graphics2D g = image.createGraphics();
        g.setColor(MODEL);
        g.fillRect(40, 40, 120, 340);
        g.dispose();
        return image;
    }

    static BufferedImage shirt() {
        BufferedImage image = filled(100, 80, Color.WHITE);
        Graphics2D g = image.createGraphics();
        g.setColor(SHIRT);
        g.fillRect(10, 5, 80, 70);
        g.dispose();
        return image;
    }

    static BufferedImage filled(int width, int height, Color color) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(color);
        g.fillRect(0, 0, width, height);
        g.dispose();
        return image;
    }

    private static byte[] png(BufferedImage image) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(image, "png", bytes);
        return bytes.toByteArray();
    }

    private static void json(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
    }
}
