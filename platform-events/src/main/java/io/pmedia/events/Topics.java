package io.pmedia.events;

/** Kafka topic names and event types of contracts.md ("Events"); record keys are the resource identifiers. */
public final class Topics {

    public static final String MEDIA_STATUS = "pmedia.media.status";
    public static final String BATCH_STATUS = "pmedia.batch.status";
    public static final String VTON_STATUS = "pmedia.vton.status";
    public static final String CAMPAIGN_STATUS = "pmedia.campaign.status";
    public static final String WEBHOOK_DEAD_LETTER = "pmedia.webhook.dead-letter";
    /** The realtime render lane: the work queue any producer may submit to (media-service's workers; docs/media.md). */
    public static final String RENDER_JOBS = "pmedia.render.jobs";
    /** The batch render lane: taken by the same workers only while no realtime job waits ({@link RenderLane}). */
    public static final String RENDER_JOBS_BATCH = "pmedia.render.jobs.batch";
    /** Where results go when a job names no {@code reply-to}. */
    public static final String RENDER_RESULTS = "pmedia.render.results";
    /** batch-service's {@code reply-to} for its render jobs. */
    public static final String BATCH_RENDER_RESULTS = "pmedia.batch.render-results";

    /** What viewers do on share pages (engagement-service's beacons; docs/sharing.md). */
    public static final String ENGAGEMENT_EVENTS = "pmedia.engagement.events";
    /** Milestones of shared videos that vendors may receive as webhooks. */
    public static final String ENGAGEMENT_STATUS = "pmedia.engagement.status";
    /** Share links opened before their video was rendered: the owner renders it (render on first view). */
    public static final String ENGAGEMENT_RENDERS = "pmedia.engagement.renders";

    public static final String MEDIA_STATUS_CHANGED = "io.pmedia.media.status.changed";
    public static final String BATCH_STATUS_CHANGED = "io.pmedia.batch.status.changed";
    public static final String VTON_STATUS_CHANGED = "io.pmedia.vton.status.changed";
    public static final String CAMPAIGN_STATUS_CHANGED = "io.pmedia.campaign.status.changed";
    public static final String WEBHOOK_EXHAUSTED = "io.pmedia.webhook.delivery.exhausted";
    public static final String VIDEO_SHARED = "io.pmedia.video.shared";
    public static final String VIEWER_EVENT = "io.pmedia.engagement.viewer.event";
    public static final String ENGAGEMENT_MILESTONE = "io.pmedia.engagement.milestone";
    public static final String RENDER_ON_VIEW = "io.pmedia.video.render.requested";
    public static final String RENDER_JOB_REQUESTED = "io.pmedia.render.job.requested";
    public static final String RENDER_JOB_COMPLETED = "io.pmedia.render.job.completed";

    private Topics() {
    }
}
