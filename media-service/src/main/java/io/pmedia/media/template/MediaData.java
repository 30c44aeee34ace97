package io.pmedia.media.template;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The {@code data} object of the current request form (interface 2.3). The document leaves the elements of
 * {@code global_cohorts} and {@code frame_segments} and the keys of {@code personalization_fields} open; they are
 * defined here and in docs/templates.md. Inside {@code data} keys use underscores, like the document's own.
 */
public record MediaData(
        @JsonProperty("global_assets") GlobalAssets globalAssets,
        @JsonProperty("global_cohorts") List<Cohort> globalCohorts,
        @JsonProperty("personalization_fields") Map<String, JsonNode> personalizationFields,
        @JsonProperty("frame_segments") List<FrameSegment> frameSegments) {

    /** URLs filling the template's asset slots by index. */
    public record GlobalAssets(List<String> images, List<String> videos, List<String> icons) {
    }

    /** A cohort the user belongs to, e.g. {@code {"cohort": "gold"}}; segment variants are chosen by it. */
    public record Cohort(String cohort, String name) {

        public String value() {
            return cohort != null ? cohort : name;
        }
    }

    /**
     * A change to one named segment of the template: its position ({@code order}, ascending; unnamed segments keep
     * their place after the ordered ones), {@code skip}, a new {@code duration} in seconds, and overrides of its
     * layers' {@code texts} and {@code assets} (URLs) by layer id.
     */
    public record FrameSegment(@JsonProperty("segment_id") String segmentId, Integer order, Boolean skip,
            Double duration, Map<String, String> texts, Map<String, String> assets) {
    }
}
