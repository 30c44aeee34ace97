package io.pmedia.common.event;

/** Kafka topic names and event types of contracts.md ("Events"); record keys are the resource identifiers. */
public final class Topics {

    public static final String MEDIA_STATUS = "pmedia.media.status";
    public static final String BATCH_STATUS = "pmedia.batch.status";
    public static final String VTON_STATUS = "pmedia.vton.status";
    public static final String CAMPAIGN_STATUS = "pmedia.campaign.status";
    public static final String WEBHOOK_DEAD_LETTER = "pmedia.webhook.dead-letter";

    public static final String MEDIA_STATUS_CHANGED = "io.pmedia.media.status.changed";
    public static final String BATCH_STATUS_CHANGED = "io.pmedia.batch.status.changed";
    public static final String VTON_STATUS_CHANGED = "io.pmedia.vton.status.changed";
    public static final String CAMPAIGN_STATUS_CHANGED = "io.pmedia.campaign.status.changed";
    public static final String WEBHOOK_EXHAUSTED = "io.pmedia.webhook.delivery.exhausted";

    private Topics() {
    }
}
