package io.pmedia.events;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of a render job, published by the render worker on the job's {@code reply-to} (key: job id). On
 * {@code SUCCESS} the video and thumbnail are in the object store under the keys given.
 */
public record RenderResult(
        @JsonProperty("job-id") String jobId,
        String producer,
        RenderOutcome status,
        String message,
        @JsonProperty("video-key") String videoKey,
        @JsonProperty("thumbnail-key") String thumbnailKey,
        @JsonProperty("duration-seconds") Double durationSeconds,
        Integer width,
        Integer height,
        @JsonProperty("render-millis") Long renderMillis) implements EventPayload {

    public static RenderResult failure(RenderJob job, String message, long millis) {
        return new RenderResult(job.jobId(), job.producer(), RenderOutcome.FAILURE, message, null, null, null, null,
                null, millis);
    }

    public boolean succeeded() {
        return status == RenderOutcome.SUCCESS;
    }

    /** The default result topic; the worker publishes on its job's {@link RenderJob#resultTopic()}. */
    @Override
    public String topic() {
        return Topics.RENDER_RESULTS;
    }

    @Override
    public String type() {
        return Topics.RENDER_JOB_COMPLETED;
    }

    @Override
    public String key() {
        return jobId;
    }
}
