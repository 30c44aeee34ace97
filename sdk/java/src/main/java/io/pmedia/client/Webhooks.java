package io.pmedia.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.client.invoker.ApiClient;
import io.pmedia.client.model.TaskStatus;
import io.pmedia.client.model.TryOnStatus;
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

    /**
     * Checks any webhook pmedia sends and reads it as the event it is ({@link WebhookEvent}: its type and its typed
     * body), for every event type. The type is read from the signed body (an engagement event names itself in
     * {@code event-type}; a task status has {@code task-id}, a try-on status {@code request-id}, a video push
     * {@code video-url}); the unsigned {@code webhook-event-type} header, when present, must agree with it.
     *
     * @throws WebhookVerificationException when it does not verify or is no event pmedia sends
     */
    public static WebhookEvent verifyEvent(Map<String, ?> headers, String body, String secret) {
        return verifyEvent(headers, body, secret, Clock.systemUTC());
    }

    /** {@link #verifyEvent(Map, String, String)} at the time of {@code clock}. */
    public static WebhookEvent verifyEvent(Map<String, ?> headers, String body, String secret, Clock clock) {
        JsonNode json = verify(headers, body, secret, JsonNode.class, clock);
        if (!json.isObject()) {
            throw new WebhookVerificationException("the webhook verifies but its body is not a JSON object");
        }
        String header = optionalHeader(headers, "webhook-event-type");
        WebhookEvent.Type type = typeOf(json, header);
        if (header != null && !header.equals(type.wire())) {
            throw new WebhookVerificationException(
                    "the webhook-event-type header says " + header + " but the signed body is " + type.wire());
        }
        String id = header(headers, "webhook-id");
        Instant at = Instant.ofEpochSecond(Long.parseLong(header(headers, "webhook-timestamp").trim()));
        Class<?> kind;
        switch (type) {
            case VIDEO_PUSH :
            case TEST :
                kind = VideoPush.class;
                break;
            case BATCH_TASK_ENDED :
                kind = TaskStatus.class;
                break;
            case TRYON_REQUEST_ENDED :
                kind = TryOnStatus.class;
                break;
            case VIDEO_RENDERED :
            case VIDEO_RENDER_FAILED :
                kind = WebhookEvent.RenderEvent.class;
                break;
            default :
                kind = WebhookEvent.EngagementEvent.class;
        }
        try {
            return new WebhookEvent(type, id, at, MAPPER.treeToValue(json, kind));
        } catch (IOException | IllegalArgumentException e) {
            throw new WebhookVerificationException("the signed body is not a " + type.wire() + " event", e);
        }
    }

    private static WebhookEvent.Type typeOf(JsonNode json, String header) {
        JsonNode named = json.get("event-type");
        if (named != null && named.isTextual()) {
            WebhookEvent.Type type = WebhookEvent.Type.of(named.asText());
            if (type == null || type.ordinal() < WebhookEvent.Type.VIDEO_VIEWED.ordinal()) {
                throw new WebhookVerificationException(
                        "the webhook verifies but its event-type " + named.asText() + " is no event pmedia sends");
            }
            return type;
        }
        if (json.has("task-id")) {
            return WebhookEvent.Type.BATCH_TASK_ENDED;
        }
        if (json.has("request-id")) {
            return WebhookEvent.Type.TRYON_REQUEST_ENDED;
        }
        if (json.has("video-url") && json.has("client-request-id")) {
            return "test".equals(header) ? WebhookEvent.Type.TEST : WebhookEvent.Type.VIDEO_PUSH;
        }
        throw new WebhookVerificationException("the webhook verifies but its body is no event pmedia sends");
    }

    private static String optionalHeader(Map<String, ?> headers, String name) {
        try {
            return header(headers, name);
        } catch (WebhookVerificationException absent) {
            return null;
        }
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
