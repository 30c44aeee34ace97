package io.pmedia.notifier;

import io.pmedia.common.client.WebhookEventType;

/**
 * What a delivery carries: one of the events an endpoint subscribes to ({@link WebhookEventType}), or a test event a
 * vendor asked for (always sent). The wire name is stored, shown by the deliveries API and sent in the
 * {@code webhook-event-type} header.
 */
public enum DeliveryKind {
    VIDEO_PUSH(WebhookEventType.VIDEO_PUSH), BATCH_TASK_ENDED(WebhookEventType.BATCH_TASK_ENDED), TRYON_REQUEST_ENDED(
            WebhookEventType.TRYON_REQUEST_ENDED), VIDEO_VIEWED(WebhookEventType.VIDEO_VIEWED), VIDEO_COMPLETED(
                    WebhookEventType.VIDEO_COMPLETED), CTA_CLICKED(WebhookEventType.CTA_CLICKED), VIDEO_RENDERED(
                            WebhookEventType.VIDEO_RENDERED), VIDEO_RENDER_FAILED(
                                    WebhookEventType.VIDEO_RENDER_FAILED), TEST(null);

    private final WebhookEventType eventType;

    DeliveryKind(WebhookEventType eventType) {
        this.eventType = eventType;
    }

    /** The name stored and shown by the deliveries API. */
    public String wire() {
        return eventType == null ? "test" : eventType.wire();
    }

    /** The subscription that lets it be sent; null for a test, which needs none. */
    public WebhookEventType eventType() {
        return eventType;
    }

    public static DeliveryKind fromWire(String value) {
        for (DeliveryKind kind : values()) {
            if (kind.wire().equals(value)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown delivery kind " + value);
    }
}
