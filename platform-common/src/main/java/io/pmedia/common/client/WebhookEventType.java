package io.pmedia.common.client;

import java.util.Arrays;
import java.util.List;

import io.pmedia.common.wire.WireName;

/**
 * The events a vendor's webhook endpoint may subscribe to (docs/webhooks.md). The gateway's client registry keeps the
 * subscription with the endpoint's URL; the notifier sends only what is subscribed and names the type of every
 * delivery in its {@code webhook-event-type} header.
 */
public enum WebhookEventType implements WireName {
    /** The interface's video push (2.7): a realtime request produced its video. The default subscription. */
    VIDEO_PUSH("video.push"),
    /** A batch task ended (COMPLETED or FAILED, with its output file once written); the body is its 2.8 status. */
    BATCH_TASK_ENDED("batch.task.ended"),
    /** A try-on request ended (SUCCESS or FAILURE); the body is its 2.9 status. */
    TRYON_REQUEST_ENDED("tryon.request.ended"),
    /** A shared video was viewed for the first time (docs/sharing.md). */
    VIDEO_VIEWED("video.viewed"),
    /** A shared video was watched to its end (95 %) for the first time. */
    VIDEO_COMPLETED("video.completed"),
    /** A viewer clicked a shared video's call to action (once per page view). */
    CTA_CLICKED("cta.clicked"),
    /** The render on first view of a shared video ended with its video (docs/sharing.md, "Render on first view"). */
    VIDEO_RENDERED("video.rendered"),
    /** The render on first view of a shared video failed (its link's page says so). */
    VIDEO_RENDER_FAILED("video.render-failed");

    /** What an endpoint receives when nobody chose otherwise: the interface's one event. */
    public static final List<WebhookEventType> DEFAULT = List.of(VIDEO_PUSH);

    private final String wire;

    WebhookEventType(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Every spelling, for messages that list what is allowed. */
    public static String spellings() {
        return String.join(", ", Arrays.stream(values()).map(WebhookEventType::wire).toList());
    }
}
