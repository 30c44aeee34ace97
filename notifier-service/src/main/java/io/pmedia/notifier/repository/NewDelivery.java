package io.pmedia.notifier.repository;

import java.time.Instant;
import java.util.UUID;

import io.pmedia.notifier.DeliveryKind;

/**
 * An event to be delivered, as a consumer derived it from a status event: its kind, the resource it is about
 * ({@code subject}), the exact body; {@code traceParent} is the event's trace context (null when none).
 */
public record NewDelivery(String webhookId, UUID eventId, DeliveryKind kind, UUID clientId, String subject,
        String payload, Instant eventTime, String traceParent) {
}
