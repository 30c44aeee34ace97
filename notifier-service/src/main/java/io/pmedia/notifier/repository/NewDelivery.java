package io.pmedia.notifier.repository;

import java.time.Instant;
import java.util.UUID;

/** A video push to be delivered, as the consumer derived it from a media status event. */
public record NewDelivery(String webhookId, UUID eventId, UUID clientId, String subject, String payload,
        Instant eventTime) {
}
