package io.pmedia.media.template;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.events.FrameSegment;

/**
 * The {@code data} object of the current request form ({@code POST /media/demo}, interface 2.3). The document names
 * its four members and leaves the elements of {@code global_cohorts} and {@code frame_segments} and the keys of
 * {@code personalization_fields} open; they are defined here and in docs/templates.md.
 * <p>
 * Every key inside {@code data} is spelled with underscores ({@code segment_id}), like the four keys the document
 * gives {@code data} itself, so a vendor writing this object never mixes the two styles within it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MediaData(
        @JsonProperty("global_assets") GlobalAssets globalAssets,
        @JsonProperty("global_cohorts") List<Cohort> globalCohorts,
        @JsonProperty("personalization_fields") Map<String, JsonNode> personalizationFields,
        @JsonProperty("frame_segments") List<FrameSegment> frameSegments) {

    /** URLs filling the template's asset slots by index; an empty string or null leaves a slot empty. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GlobalAssets(List<String> images, List<String> videos, List<String> icons) {
    }

    /** A cohort the user belongs to, e.g. {@code {"cohort": "gold"}}; segment variants are chosen by it. */
    public record Cohort(String cohort) {
    }
}
