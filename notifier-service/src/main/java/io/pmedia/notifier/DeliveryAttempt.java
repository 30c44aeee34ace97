package io.pmedia.notifier;

import java.time.Instant;

/**
 * One HTTP attempt of a delivery (table {@code webhook_attempt}).
 *
 * @param statusCode the endpoint's HTTP status, or null when no response came (timeout, connection, refused address)
 * @param error why the attempt did not succeed, or null
 * @param responseBody the beginning of what the endpoint answered
 */
public record DeliveryAttempt(int attempt, AttemptTrigger trigger, String url, Instant attemptedAt,
        Integer statusCode, Integer latencyMillis, String error, String responseBody) {

    /** What caused an attempt. */
    public enum AttemptTrigger {
        /** The retry schedule (the first attempt included). */
        SCHEDULED,
        /** {@code POST /webhooks/deliveries/{id}/replay}. */
        REPLAY,
        /** {@code POST /webhooks/test}. */
        TEST,
        /** {@code POST /webhooks/deliveries/recover}: one more attempt of a delivery that had failed. */
        RECOVER;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
