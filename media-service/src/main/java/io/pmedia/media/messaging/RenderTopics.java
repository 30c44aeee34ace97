package io.pmedia.media.messaging;

/** The render work queue: jobs in, results out; any producer may submit (docs/events.md). */
public final class RenderTopics {

    public static final String JOBS = "pmedia.render.jobs";
    public static final String RESULTS = "pmedia.render.results";
    public static final String JOB_TYPE = "io.pmedia.render.job.requested";
    public static final String RESULT_TYPE = "io.pmedia.render.job.completed";
    public static final String SOURCE = "/pmedia/media-service";

    private RenderTopics() {
    }
}
