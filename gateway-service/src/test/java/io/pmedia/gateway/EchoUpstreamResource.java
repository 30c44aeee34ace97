package io.pmedia.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Stands in for the domain services: answers every call with what it received (method, target, headers, body), so
 * tests see exactly what the gateway forwarded. The batch service is pointed at a closed port: it is "down".
 */
public class EchoUpstreamResource implements QuarkusTestResourceLifecycleManager {

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        ObjectMapper mapper = new ObjectMapper();
        server.createContext("/", exchange -> {
            ObjectNode echo = mapper.createObjectNode()
                    .put("method", exchange.getRequestMethod())
                    .put("target", exchange.getRequestURI().toString())
                    .put("authorization", exchange.getRequestHeaders().getFirst("Authorization"))
                    .put("api-key", exchange.getRequestHeaders().getFirst("x-api-key"))
                    .put("forwarded-for", exchange.getRequestHeaders().getFirst("X-Forwarded-For"))
                    .put("content-type", exchange.getRequestHeaders().getFirst("Content-Type"))
                    .put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = mapper.writeValueAsBytes(echo);
            int status = exchange.getRequestURI().getPath().endsWith("/teapot") ? 418 : 200;
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("Retry-After", "7");
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!head) {
                    out.write(answer);
                }
            }
        });
        server.start();
        String echo = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "pmedia.gateway.services.media", echo,
                "pmedia.gateway.services.campaign", echo,
                "pmedia.gateway.services.notifier", echo,
                "pmedia.gateway.services.vton", echo,
                "pmedia.gateway.services.batch", "http://127.0.0.1:" + closedPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
