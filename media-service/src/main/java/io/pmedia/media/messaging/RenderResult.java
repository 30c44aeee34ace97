package io.pmedia.media.messaging;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of a render job, published on {@code pmedia.render.results} (key: job id) for its producer. On
 * {@code SUCCESS} the video and thumbnail are in the object store under the keys given.
 */
public record RenderResult(
        @JsonProperty("job-id") String jobId,
        String producer,
        String status,
        String message,
        @JsonProperty("video-key") String videoKey,
        @JsonProperty("thumbnail-key") String thumbnailKey,
        @JsonProperty("duration-seconds") Double durationSeconds,
        Integer width,
        Integer height,
        @JsonProperty("render-millis") Long renderMillis) {

    public static final String SUCCESS = "SUCCESS";
    public static final String FAILURE = "FAILURE";

    public static RenderResult failure(RenderJob job, String message, long millis) {
        return new RenderResult(job.jobId(), job.producer(), FAILURE, message, null, null, null, null, null, millis);
    }
}
