package io.pmedia.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.client.invoker.ApiClient;
import io.pmedia.client.model.VideoPush;

/**
 * Verifies the pushes pmedia sends to a vendor's webhook-url, as the Standard Webhooks specification says: the
 * signature {@code v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">} keyed with the base64 part
 * of the {@code whsec_...} webhook secret, any of the space-separated signatures of {@code webhook-signature}
 * matching (the previous secret keeps signing beside the new one for a day after a rotation), compared in constant
 * time, and a {@code webhook-timestamp} within five minutes of now (a replayed request is refused).
 *
 * <p>
 * No Java implementation of the specification is published as a small, kept library, so this is ours; its tests
 * check it against the specification's published example and against the official {@code standardwebhooks}
 * package for TypeScript (sdk/typescript/test), so both SDKs agree byte for byte.
 */
public final class Webhooks {

    /** How far a push's timestamp may be from now, either way (the specification's tolerance). */
    public static final Duration TOLERANCE = Duration.ofMinutes(5);

    private static final String PREFIX = "whsec_";
    private static final ObjectMapper MAPPER = ApiClient.createDefaultObjectMapper();

    private Webhooks() {
    }

    /**
     * Checks a video push and reads it.
     *
     * @param headers the request's headers, by name in any case; values a String or a collection of Strings (as
     *        {@code HttpExchange.getRequestHeaders()} or Spring's {@code HttpHeaders} hold them)
     * @param body the request body exactly as received (not parsed and serialized again)
     * @param secret the client's webhook secret, {@code whsec_...}
     * @return the push (interface 2.7)
     * @throws WebhookVerificationException when it does not verify
     */
    public static VideoPush verify(Map<String, ?> headers, String body, String secret) {
        return verify(headers, body, secret, VideoPush.class, Clock.systemUTC());
    }

    /** {@link #verify(Map, String, String)} for another payload type, at the time of {@code clock}. */
    public static <T> T verify(Map<String, ?> headers, String body, String secret, Class<T> type, Clock clock) {
        String id = header(headers, "webhook-id");
        String timestamp = header(headers, "webhook-timestamp");
        String signatures = header(headers, "webhook-signature");
        long seconds;
        try {
            seconds = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            throw new WebhookVerificationException("webhook-timestamp is not a number of seconds: " + timestamp);
        }
        long now = clock.instant().getEpochSecond();
        if (seconds < now - TOLERANCE.toSeconds()) {
            throw new WebhookVerificationException("webhook-timestamp is too old: " + timestamp);
        }
        if (seconds > now + TOLERANCE.toSeconds()) {
            throw new WebhookVerificationException("webhook-timestamp is too new: " + timestamp);
        }
        byte[] expected = Base64.getDecoder()
                .decode(signature(secret, id, seconds, body).substring("v1,".length()));
        for (String candidate : signatures.trim().split(" +")) {
            int comma = candidate.indexOf(',');
            if (comma < 0 || !candidate.substring(0, comma).equals("v1")) {
                continue;
            }
            byte[] given;
            try {
                given = Base64.getDecoder().decode(candidate.substring(comma + 1));
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (MessageDigest.isEqual(expected, given)) {
                try {
                    return MAPPER.readValue(body, type);
                } catch (IOException e) {
                    throw new WebhookVerificationException("the signed body is not a " + type.getSimpleName(), e);
                }
            }
        }
        throw new WebhookVerificationException("no matching signature in webhook-signature");
    }

    /**
     * The {@code webhook-signature} value for a push: {@code v1,<base64>}. For tests of a receiver; pmedia's
     * notifier signs the same way.
     */
    public static String signature(String secret, String id, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(secret), "HmacSHA256"));
            byte[] digest = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    private static byte[] key(String secret) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("the webhook secret is empty");
        }
        String encoded = secret.startsWith(PREFIX) ? secret.substring(PREFIX.length()) : secret;
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the webhook secret is not whsec_<base64>", e);
        }
    }

    private static String header(Map<String, ?> headers, String name) {
        for (Map.Entry<String, ?> entry : headers.entrySet()) {
            if (entry.getKey() != null && entry.getKey().toLowerCase(Locale.ROOT).equals(name)) {
                Object value = entry.getValue();
                if (value instanceof Collection) {
                    Collection<?> values = (Collection<?>) value;
                    value = values.isEmpty() ? null : values.iterator().next();
                }
                if (value != null && !value.toString().isEmpty()) {
                    return value.toString();
                }
            }
        }
        throw new WebhookVerificationException("missing header " + name);
    }
}
