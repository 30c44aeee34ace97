package io.pmedia.notifier.repository;

import java.time.Instant;
import java.util.UUID;

/**
 * A video push to be delivered, as the consumer derived it from a media status event; {@code traceParent} is the
 * event's trace context (null when none).
 */
public record NewDelivery(String webhookId, UUID eventId, UUID clientId, String subject, String payload,
        Instant eventTime, String traceParent) {
}
