import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A local webhook endpoint that verifies Standard Webhooks signatures, for trying pushes by hand and for
 * scripts/e2e.sh. The verification is written here from the specification, independently of the notifier's signer.
 *
 * <pre>
 *   java scripts/WebhookReceiver.java PORT WEBHOOK_SECRET
 * </pre>
 *
 * Listens on 127.0.0.1:PORT (0 picks a free port); prints {@code listening PORT}, then one line per request:
 * {@code verified <webhook-id> <body>} (answered 202 with the suggested reply of interface section 6) or
 * {@code rejected <reason>} (answered 400).
 */
public class WebhookReceiver {

    private static final long TOLERANCE_SECONDS = 300;

    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !args[1].startsWith("whsec_")) {
            System.err.println("usage: java scripts/WebhookReceiver.java PORT whsec_SECRET");
            System.exit(2);
        }
        byte[] key = Base64.getDecoder().decode(args[1].substring("whsec_".length()));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(args[0])), 16);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                String problem = problem(exchange, key, body);
                String text = new String(body, StandardCharsets.UTF_8).replace('\n', ' ');
                String id = exchange.getRequestHeaders().getFirst("webhook-id");
                synchronized (out) {
                    out.println(problem == null ? "verified " + id + " " + text : "rejected " + problem);
                }
                byte[] answer = problem == null
                        ? ("{\"client-request-id\":" + quoted(field(text, "client-request-id")) + ",\"status\":\"202\"}")
                                .getBytes(StandardCharsets.UTF_8)
                        : new byte[0];
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(problem == null ? 202 : 400, answer.length == 0 ? -1 : answer.length);
                exchange.getResponseBody().write(answer);
            }
        });
        server.start();
        out.println("listening " + server.getAddress().getPort());
    }

    /** Why the request does not verify, or null when one of its v1 signatures is right and it is recent. */
    private static String problem(HttpExchange exchange, byte[] key, byte[] body) {
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
        String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
        if (!"POST".equals(exchange.getRequestMethod())) {
            return "method " + exchange.getRequestMethod();
        }
        if (id == null || timestamp == null || signatures == null) {
            return "missing webhook-id, webhook-timestamp or webhook-signature";
        }
        long seconds;
        try {
            seconds = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return "webhook-timestamp is not a number";
        }
        if (Math.abs(Instant.now().getEpochSecond() - seconds) > TOLERANCE_SECONDS) {
            return "webhook-timestamp is more than " + TOLERANCE_SECONDS + " s away";
        }
        byte[] expected = hmac(key, (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8), body);
        for (String signature : signatures.split(" ")) {
            if (signature.startsWith("v1,")) {
                byte[] given;
                try {
                    given = Base64.getDecoder().decode(signature.substring(3));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (MessageDigest.isEqual(expected, given)) {
                    return null;
                }
            }
        }
        return "no v1 signature matches";
    }

    private static byte[] hmac(byte[] key, byte[] prefix, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(prefix);
            return mac.doFinal(body);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A string member of a flat JSON object, enough for the suggested reply; null when absent. */
    private static String field(String json, String name) {
        var matcher = java.util.regex.Pattern.compile("\"" + java.util.regex.Pattern.quote(name)
                + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
        return matcher.find() ? matcher.group(1) : null;
    }

    private static String quoted(String escapedJsonText) {
        return escapedJsonText == null ? "null" : "\"" + escapedJsonText + "\"";
    }
}
