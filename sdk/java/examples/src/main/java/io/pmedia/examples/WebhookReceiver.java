package io.pmedia.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import com.sun.net.httpserver.HttpServer;

import io.pmedia.client.WebhookVerificationException;
import io.pmedia.client.Webhooks;
import io.pmedia.client.model.VideoPush;

/**
 * An endpoint for the video push (register its URL as the client's webhook-url): every push is verified with the
 * webhook secret before it is believed; anything that does not verify gets 400 and is not used.
 */
public final class WebhookReceiver {

    private WebhookReceiver() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8090;
        HttpServer server = start(port, Env.get("PMEDIA_DEMO_WEBHOOK_SECRET"),
                push -> System.out.println("video ready for " + push.getUserId() + ": " + push.getVideoUrl()));
        System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort() + "/video-push");
    }

    /** Listens on {@code port} (0: any free one) and hands every verified push to {@code onPush}. */
    public static HttpServer start(int port, String webhookSecret, Consumer<VideoPush> onPush) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/video-push", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status;
            try {
                VideoPush push = Webhooks.verify(exchange.getRequestHeaders(), body, webhookSecret);
                onPush.accept(push);
                status = 202;
            } catch (WebhookVerificationException e) {
                status = 400;
            }
            exchange.sendResponseHeaders(status, -1);
            try (OutputStream ignored = exchange.getResponseBody()) {
                // no body
            }
        });
        server.start();
        return server;
    }
}
