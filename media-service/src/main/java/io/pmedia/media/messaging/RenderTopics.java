package io.pmedia.media.messaging;

/** The render work queue: jobs in, results out; any producer may submit (docs/media.md, docs/asyncapi.yaml). */
public final class RenderTopics {

    public static final String JOBS = "pmedia.render.jobs";
    public static final String RESULTS = "pmedia.render.results";
    public static final String JOB_TYPE = "io.pmedia.render.job.requested";
    public static final String RESULT_TYPE = "io.pmedia.render.job.completed";
    /** The producer name of realtime requests: their results are applied by {@link RenderResults}. */
    public static final String MEDIA_PRODUCER = "media";
    public static final String SOURCE = "/pmedia/media-service";
    /** Results go only to pmedia's own topics, whatever a job says. */
    public static final String REPLY_PREFIX = "pmedia.";

    private RenderTopics() {
    }
}
