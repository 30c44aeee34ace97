package io.pmedia.notifier;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Webhook secrets for tests and a receiver-side verification written from the Standard Webhooks specification,
 * independent of the service's own signer.
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {
    }

    /** A fresh {@code whsec_<base64 of 24 random bytes>}, the form the gateway issues. */
    public static String newSecret() {
        byte[] key = new byte[24];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    /** The expected {@code v1,...} signature, computed the way a receiver does. */
    public static String expected(String secret, String id, String timestamp, String body) {
        try {
            byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] digest = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The signatures of a {@code webhook-signature} header (space-separated). */
    public static List<String> signatures(String header) {
        return header == null ? List.of() : Arrays.asList(header.trim().split(" +"));
    }

    /** Whether a request carries a valid signature made with {@code secret}. */
    public static boolean verifies(TestReceiver.Received request, String secret) {
        String expected = expected(secret, request.header("webhook-id"), request.header("webhook-timestamp"),
                request.body());
        return signatures(request.header("webhook-signature")).contains(expected);
    }
}
