package io.pmedia.events;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One customer's data for a template, whichever way it arrived (the current request form, the earlier form, a row
 * of a batch file): field values by field name, asset URLs by slot index ({@code ""} for an empty slot), the user's
 * cohorts and segment directives. Plain data: media-service's template resolver decides what of it is valid.
 */
public record RenderInput(
        Map<String, String> fields,
        List<String> images,
        List<String> videos,
        List<String> icons,
        List<String> cohorts,
        @JsonProperty("frame-segments") List<FrameSegment> frameSegments) {

    public RenderInput {
        Map<String, String> copy = new LinkedHashMap<>();
        if (fields != null) {
            fields.forEach((name, value) -> {
                if (name != null && value != null) {
                    copy.put(name, value);
                }
            });
        }
        fields = Collections.unmodifiableMap(copy);
        images = urls(images);
        videos = urls(videos);
        icons = urls(icons);
        cohorts = cohorts == null ? List.of() : List.copyOf(new LinkedHashSet<>(cohorts));
        frameSegments = frameSegments == null ? List.of() : List.copyOf(frameSegments);
    }

    /** No data at all: a template whose fields and slots are all optional renders from it. */
    public static RenderInput empty() {
        return new RenderInput(null, null, null, null, null, null);
    }

    private static List<String> urls(List<String> urls) {
        if (urls == null) {
            return List.of();
        }
        List<String> copy = new ArrayList<>(urls.size());
        for (String url : urls) {
            copy.add(url == null ? "" : url);
        }
        return List.copyOf(copy);
    }
}
