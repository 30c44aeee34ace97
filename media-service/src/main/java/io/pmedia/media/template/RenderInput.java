package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One customer's data for a template, whichever request form it came from (or a batch row): field values, asset
 * URLs by kind, cohort names and segment directives. Serializable, so a render job carries it.
 */
public record RenderInput(
        Map<String, String> fields,
        List<String> images,
        List<String> videos,
        List<String> icons,
        Set<String> cohorts,
        @JsonProperty("frame-segments") List<MediaData.FrameSegment> frameSegments) {

    public RenderInput {
        fields = fields == null ? Map.of() : Map.copyOf(fields);
        images = images == null ? List.of() : List.copyOf(nonNull(images));
        videos = videos == null ? List.of() : List.copyOf(nonNull(videos));
        icons = icons == null ? List.of() : List.copyOf(nonNull(icons));
        cohorts = cohorts == null ? Set.of() : Set.copyOf(cohorts);
        frameSegments = frameSegments == null ? List.of() : List.copyOf(frameSegments);
    }

    public List<String> assets(AssetKind kind) {
        return switch (kind) {
            case IMAGE -> images;
            case VIDEO -> videos;
            case ICON -> icons;
        };
    }

    /** From the current form's {@code data} (interface 2.3). */
    public static RenderInput fromCurrentForm(MediaData data) {
        if (data == null) {
            return new RenderInput(Map.of(), List.of(), List.of(), List.of(), Set.of(), List.of());
        }
        Map<String, String> fields = new LinkedHashMap<>();
        if (data.personalizationFields() != null) {
            data.personalizationFields().forEach((name, value) -> {
                if (value != null && !value.isNull()) {
                    fields.put(name, value.isValueNode() ? value.asText() : value.toString());
                }
            });
        }
        MediaData.GlobalAssets assets = data.globalAssets();
        Set<String> cohorts = new LinkedHashSet<>();
        if (data.globalCohorts() != null) {
            data.globalCohorts().stream().filter(c -> c != null && c.value() != null)
                    .forEach(c -> cohorts.add(c.value()));
        }
        return new RenderInput(fields, assets == null ? null : assets.images(), assets == null ? null : assets.videos(),
                assets == null ? null : assets.icons(), cohorts, data.frameSegments());
    }

    /**
     * From the earlier form (interface 2.4): texts fill the fields the template's {@code earlier-form} names for
     * their positions (by default {@code phrase-texts} fill the template's fields in order); URLs fill the image
     * and video slots in order.
     */
    public static RenderInput fromEarlierForm(List<String> phraseTexts, List<String> imageTexts,
            List<String> videoTexts, List<String> imageUrls, List<String> videoUrls, TemplateDefinition template) {
        Map<String, String> fields = new LinkedHashMap<>();
        TemplateDefinition.EarlierForm mapping = template.earlierForm();
        List<String> phraseFields = mapping != null && mapping.phraseTexts() != null
                ? mapping.phraseTexts()
                : template.fieldsOrEmpty().stream().map(TemplateDefinition.Field::name).toList();
        fill(fields, phraseFields, phraseTexts);
        fill(fields, mapping == null ? null : mapping.imageTexts(), imageTexts);
        fill(fields, mapping == null ? null : mapping.videoTexts(), videoTexts);
        return new RenderInput(fields, imageUrls, videoUrls, List.of(), Set.of(), List.of());
    }

    private static void fill(Map<String, String> fields, List<String> names, List<String> values) {
        if (names == null || values == null) {
            return;
        }
        for (int i = 0; i < Math.min(names.size(), values.size()); i++) {
            if (values.get(i) != null) {
                fields.put(names.get(i), values.get(i));
            }
        }
    }

    private static List<String> nonNull(List<String> values) {
        List<String> copy = new ArrayList<>(values.size());
        for (String value : values) {
            copy.add(value == null ? "" : value);
        }
        return copy;
    }
}
