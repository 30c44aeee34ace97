package io.pmedia.media.messaging;

import io.pmedia.common.event.Topics;

/**
 * The render work queue as the workers see it: jobs in, results out; any producer may submit (docs/media.md,
 * docs/asyncapi.yaml). The names are platform-common's {@link Topics}, which other producers use.
 */
public final class RenderTopics {

    public static final String JOBS = Topics.RENDER_JOBS;
    public static final String RESULTS = Topics.RENDER_RESULTS;
    public static final String JOB_TYPE = Topics.RENDER_JOB_REQUESTED;
    public static final String RESULT_TYPE = Topics.RENDER_JOB_COMPLETED;
    /** The producer name of realtime requests: their results are applied by {@link RenderResults}. */
    public static final String MEDIA_PRODUCER = "media";
    public static final String SOURCE = "/pmedia/media-service";
    /** Results go only to pmedia's own topics, whatever a job says. */
    public static final String REPLY_PREFIX = "pmedia.";

    private RenderTopics() {
    }
}
