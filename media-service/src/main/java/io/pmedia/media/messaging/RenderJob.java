package io.pmedia.media.messaging;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.media.template.RenderInput;
import io.pmedia.media.template.TemplateDefinition;

/**
 * What a render worker needs to render one video, from any producer (a realtime request today, a batch row next):
 * the template snapshot, the customer's data, and where the outputs go. Published on {@code pmedia.render.jobs}
 * (key: job id) in a CloudEvent envelope of type {@value RenderTopics#JOB_TYPE}.
 */
public record RenderJob(
        @JsonProperty("job-id") String jobId,
        String producer,
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("template-id") UUID templateId,
        @JsonProperty("template-version") int templateVersion,
        TemplateDefinition template,
        RenderInput input,
        @JsonProperty("output-prefix") String outputPrefix,
        @JsonProperty("time-limit-seconds") Integer timeLimitSeconds) {
}
