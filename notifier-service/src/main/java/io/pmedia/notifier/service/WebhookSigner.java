package io.pmedia.notifier.service;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: {@code v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">}, keyed
 * with the base64-decoded part of a {@code whsec_} secret. With several valid secrets (during a rotation) the header
 * carries one signature per secret, space-separated, so receivers verify with either the old or the new secret.
 */
public final class WebhookSigner {

    public static final String SECRET_PREFIX = "whsec_";

    private WebhookSigner() {
    }

    /**
     * The {@code webhook-signature} header value for {@code body} signed with each of {@code secrets}.
     *
     * @throws IllegalArgumentException when no secret is usable (nothing is ever sent unsigned)
     */
    public static String signatureHeader(String webhookId, long timestamp, byte[] body, List<String> secrets) {
        List<String> signatures = new ArrayList<>(secrets.size());
        for (String secret : secrets) {
            byte[] key = key(secret);
            if (key != null) {
                signatures.add(sign(key, webhookId, timestamp, body));
            }
        }
        if (signatures.isEmpty()) {
            throw new IllegalArgumentException("the client has no usable webhook secret");
        }
        return String.join(" ", signatures);
    }

    /** One {@code v1,<base64>} signature. */
    public static String sign(byte[] key, String webhookId, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /** The HMAC key of a {@code whsec_<base64>} secret (a bare base64 secret is accepted too), or null if invalid. */
    public static byte[] key(String secret) {
        if (secret == null || secret.isBlank()) {
            return null;
        }
        String encoded = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
        try {
            byte[] key = Base64.getDecoder().decode(encoded.trim());
            return key.length == 0 ? null : key;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
