package io.pmedia.media.messaging;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.media.template.RenderInput;
import io.pmedia.media.template.TemplateDefinition;

/**
 * What a render worker needs to render one video, from any producer (a realtime request today, a batch row next):
 * the template snapshot, the customer's data, where the outputs go and where the result goes. Published on
 * {@code pmedia.render.jobs} (key: job id) in a CloudEvent envelope of type {@value RenderTopics#JOB_TYPE}; the
 * worker answers with a {@link RenderResult} of the same {@code job-id} on {@code reply-to}.
 *
 * @param jobId unique per job, the correlation id of its result (realtime: the service-request-id)
 * @param producer who submitted it ({@code media}, {@code batch}); copied into the result
 * @param replyTo topic of the result; null: {@value RenderTopics#RESULTS}. Must start with {@code pmedia.}
 * @param template the definition of {@code template-id} version {@code template-version}, carried whole so a
 *        worker needs no database and a later version cannot change an accepted request
 * @param input the customer's data, already checked against the template at submission
 * @param outputPrefix object-store key prefix; the worker writes {@code video.mp4} and {@code thumbnail.jpg} under it
 * @param timeLimitSeconds longest the render may take; null: the worker's configured limit
 */
public record RenderJob(
        @JsonProperty("job-id") String jobId,
        String producer,
        @JsonProperty("reply-to") String replyTo,
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("template-id") UUID templateId,
        @JsonProperty("template-version") int templateVersion,
        TemplateDefinition template,
        RenderInput input,
        @JsonProperty("output-prefix") String outputPrefix,
        @JsonProperty("time-limit-seconds") Integer timeLimitSeconds) {

    /** The topic the result goes to. */
    public String resultTopic() {
        return replyTo == null || replyTo.isBlank() ? RenderTopics.RESULTS : replyTo;
    }
}
