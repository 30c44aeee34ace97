package io.pmedia.events;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A change to one named segment of a template for one request ({@code data.frame_segments} of interface 2.3, spelt
 * with underscores like every key inside {@code data}; docs/templates.md).
 *
 * @param segmentId the segment's {@code id} in the template (required)
 * @param order the segment's position: segments with an order come first, ascending; the others follow in the
 *        template's order
 * @param skip true leaves the segment out
 * @param duration new length in seconds; the segment's layer timings stretch or shrink with it
 * @param texts new text for text layers, by layer id; may use the template's {@code {{field}}} placeholders
 * @param assets new http(s) URL for image, icon and video layers by layer id, and for the segment's image or video
 *        background under {@code background}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FrameSegment(@JsonProperty("segment_id") String segmentId, Integer order, Boolean skip,
        Double duration, Map<String, String> texts, Map<String, String> assets) {
}
