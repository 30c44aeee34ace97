package io.pmedia.events;

import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of a render job, published by the render worker on the job's {@code reply-to} (key: job id). On
 * {@code SUCCESS} the video and thumbnail are in the object store under the keys given, and so is every output of
 * the template ({@code renditions}, by output name; the first is the video) and the WebVTT captions of its speech,
 * if it has any ({@code captions-key}). {@code client-id} names the vendor it was rendered for and {@code stored-bytes}
 * what its stored outputs weigh: the usage of the vendor is counted from these (docs/usage.md).
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
        @JsonProperty("render-millis") Long renderMillis,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> renditions,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("captions-key") String captionsKey,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("client-id") UUID clientId,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("stored-bytes") Long storedBytes)
        implements
            EventPayload {

    /** A result with no renditions beyond the video and no captions, for no named vendor. */
    public RenderResult(String jobId, String producer, RenderOutcome status, String message, String videoKey,
            String thumbnailKey, Double durationSeconds, Integer width, Integer height, Long renderMillis) {
        this(jobId, producer, status, message, videoKey, thumbnailKey, durationSeconds, width, height, renderMillis,
                null, null, null, null);
    }

    public static RenderResult failure(RenderJob job, String message, long millis) {
        return new RenderResult(job.jobId(), job.producer(), RenderOutcome.FAILURE, message, null, null, null, null,
                null, millis, null, null, job.clientId(), null);
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
