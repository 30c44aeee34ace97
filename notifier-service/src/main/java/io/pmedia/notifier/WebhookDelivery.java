package io.pmedia.notifier;

import java.time.Instant;
import java.util.UUID;

/**
 * One message to one client's endpoint, retried until it is delivered or given up (table {@code webhook_delivery}).
 * Its {@code webhookId} is the Standard Webhooks {@code webhook-id}, stable across every attempt and replay, and also
 * the delivery's identifier in the deliveries API.
 *
 * @param eventId the source event (a media status event, or a generated id for a test event): unique, so a
 *        redelivered Kafka record never makes a second delivery
 * @param payload the exact JSON body that is sent and signed
 * @param attempts how many attempts were made so far (replays included)
 * @param url the URL of the latest attempt
 */
public record WebhookDelivery(String webhookId, UUID eventId, DeliveryKind kind, UUID clientId, String subject,
        String payload, DeliveryStatus status, int attempts, String url, Integer lastStatus, String lastError,
        Instant nextAttemptAt, Instant createdAt, Instant updatedAt) {
}
