package io.pmedia.notifier.rest;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;

import io.pmedia.common.client.WebhookEventType;
import io.pmedia.notifier.DeliveryAttempt;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.repository.AttemptRecord;
import io.pmedia.notifier.service.WebhookDeliveries;
import io.pmedia.notifier.service.WebhookEndpoints;

/** What the webhook tooling endpoints answer (field names with dashes, like the interface document's). */
public final class DeliveryDtos {

    private DeliveryDtos() {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"webhook-id", "type", "event-id", "service-request-id", "subject", "status", "url",
            "attempt-count", "last-status-code", "last-error", "next-attempt-at", "created-at", "updated-at", "payload",
            "attempts"})
    public record DeliveryView(@JsonProperty("webhook-id") String webhookId, String type,
            @JsonProperty("event-id") UUID eventId,
            @JsonProperty("service-request-id") String serviceRequestId, String subject,
            String status, String url,
            @JsonProperty("attempt-count") int attemptCount,
            @JsonProperty("last-status-code") Integer lastStatusCode,
            @JsonProperty("last-error") String lastError,
            @JsonProperty("next-attempt-at") Instant nextAttemptAt,
            @JsonProperty("created-at") Instant createdAt,
            @JsonProperty("updated-at") Instant updatedAt,
            @JsonRawValue String payload,
            List<AttemptView> attempts) {

        static DeliveryView of(WebhookDeliveries.DeliveryWithAttempts found) {
            var d = found.delivery();
            return new DeliveryView(d.webhookId(), d.kind().wire(), d.eventId(),
                    d.kind() == DeliveryKind.VIDEO_PUSH ? d.subject() : null, d.subject(), d.status().name(),
                    d.url(), d.attempts(), d.lastStatus(), d.lastError(),
                    d.status().isFinal() ? null : d.nextAttemptAt(), d.createdAt(), d.updatedAt(), d.payload(),
                    found.attempts().stream().map(AttemptView::of).toList());
        }
    }

    /** A dead letter as the operator sees it: the vendor it belongs to, then the delivery. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"client-id", "delivery"})
    public record DeadLetterView(@JsonProperty("client-id") UUID clientId, DeliveryView delivery) {

        static DeadLetterView of(WebhookDeliveries.DeliveryWithAttempts found) {
            return new DeadLetterView(found.delivery().clientId(), DeliveryView.of(found));
        }
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"attempt", "trigger", "attempted-at", "url", "status-code", "latency-ms", "error",
            "response-body"})
    public record AttemptView(int attempt, String trigger, @JsonProperty("attempted-at") Instant attemptedAt,
            String url, @JsonProperty("status-code") Integer statusCode,
            @JsonProperty("latency-ms") Integer latencyMillis, String error,
            @JsonProperty("response-body") String responseBody) {

        static AttemptView of(DeliveryAttempt attempt) {
            return new AttemptView(attempt.attempt(), attempt.trigger().wire(), attempt.attemptedAt(), attempt.url(),
                    attempt.statusCode(), attempt.latencyMillis(), attempt.error(), attempt.responseBody());
        }
    }

    /** {@code POST /webhooks/test}: what the endpoint answered to a signed test event. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"webhook-id", "url", "delivered", "status-code", "latency-ms", "error", "response-body",
            "attempted-at"})
    public record TestResult(@JsonProperty("webhook-id") String webhookId, String url, boolean delivered,
            @JsonProperty("status-code") Integer statusCode, @JsonProperty("latency-ms") Integer latencyMillis,
            String error, @JsonProperty("response-body") String responseBody,
            @JsonProperty("attempted-at") Instant attemptedAt) {

        static TestResult of(String webhookId, AttemptRecord attempt) {
            var outcome = attempt.outcome();
            return new TestResult(webhookId, attempt.url(), outcome.delivered(), outcome.statusCode(),
                    outcome.latencyMillis(), outcome.error(), outcome.responseBody(), attempt.attemptedAt());
        }
    }

    /** {@code GET|PUT /webhooks/endpoint}: the endpoint; secrets are never shown here. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"url", "event-types", "available-event-types", "previous-secret-valid-until", "disabled",
            "disabled-reason"})
    public record EndpointView(String url, @JsonProperty("event-types") List<String> eventTypes,
            @JsonProperty("available-event-types") List<String> availableEventTypes,
            @JsonProperty("previous-secret-valid-until") Instant previousSecretValidUntil, boolean disabled,
            @JsonProperty("disabled-reason") String disabledReason) {

        static EndpointView of(WebhookEndpoints.Settings settings) {
            return new EndpointView(settings.url(), settings.eventTypes(),
                    Arrays.stream(WebhookEventType.values()).map(WebhookEventType::wire).toList(),
                    settings.previousSecretValidUntil(), settings.disabled(), settings.disabledReason());
        }
    }

    /** {@code PUT /webhooks/endpoint}: the URL (null or absent: none) and the event types (absent: video.push). */
    public record EndpointRequest(String url, @JsonProperty("event-types") List<String> eventTypes) {
    }

    /** {@code POST /webhooks/endpoint/rotate-secret}: the new secret, shown once, and the old one's last moment. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record RotatedSecret(@JsonProperty("webhook-secret") String webhookSecret,
            @JsonProperty("previous-valid-until") Instant previousValidUntil) {
    }

    /** {@code POST /webhooks/deliveries/recover}: from when (and until when) failed deliveries are sent again. */
    public record RecoverRequest(String since, String until) {
    }

    /** How many deliveries went back on the schedule for one more attempt. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Recovering(int recovering, Instant since, Instant until) {
    }
}
