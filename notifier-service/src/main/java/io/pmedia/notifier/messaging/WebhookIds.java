package io.pmedia.notifier.messaging;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * Standard Webhooks {@code webhook-id}s derived, not random: every record of the same event (or every event of the
 * same resource's end) names the same delivery, so the table's unique key sees the duplicate.
 */
final class WebhookIds {

    private WebhookIds() {
    }

    /** {@code msg_} and 32 hex digits of the SHA-256 of {@code seed}. */
    static String derived(String seed) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            return "msg_" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Outbox ids are UUIDs; any other producer's id still maps to one stable UUID. */
    static UUID eventId(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException | NullPointerException e) {
            return UUID.nameUUIDFromBytes(String.valueOf(id).getBytes(StandardCharsets.UTF_8));
        }
    }
}
