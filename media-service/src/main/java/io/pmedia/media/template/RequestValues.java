package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

import io.pmedia.events.FrameSegment;
import io.pmedia.events.RenderInput;

/**
 * What a request gives a template, checked for {@link TemplateResolver}: its personalization fields (cleaned, their
 * defaults, required and length), its asset slots (in range, defaults) and its {@code frame_segments} directives (by
 * segment id, each named one declared). A value that does not fit is a {@link TemplateResolutionException} naming it.
 */
final class RequestValues {

    private RequestValues() {
    }

    static Map<String, String> fields(TemplateDefinition template, RenderInput input, String useCase) {
        Map<String, TemplateDefinition.Field> declared = new LinkedHashMap<>();
        template.fieldsOrEmpty().forEach(field -> declared.put(field.name(), field));
        Map<String, String> values = new HashMap<>();
        for (TemplateDefinition.Field field : declared.values()) {
            String given = input.fields().get(field.name());
            String value = given == null ? "" : VendorInput.cleanText(given).strip();
            if (value.isEmpty() && field.defaultValue() != null) {
                value = field.defaultValue();
            }
            if (value.isEmpty() && field.requiredOrFalse()) {
                throw new TemplateResolutionException(
                        "personalization field '" + field.name() + "' is required by " + useCase);
            }
            if (VendorInput.length(value) > field.maxLengthOrDefault()) {
                throw new TemplateResolutionException("personalization field '" + field.name() + "' is longer than "
                        + field.maxLengthOrDefault() + " characters");
            }
            values.put(field.name(), value);
        }
        return values;
    }

    static Map<AssetKind, List<String>> slots(TemplateDefinition template, RenderInput input,
            String useCase) {
        Map<AssetKind, List<String>> slots = new HashMap<>();
        for (AssetKind kind : AssetKind.SLOTS) {
            List<TemplateDefinition.AssetSlot> declared = template.assetsOrEmpty().of(kind);
            List<String> given = kind.urlsIn(input);
            for (int i = declared.size(); i < given.size(); i++) {
                if (!given.get(i).isBlank()) {
                    throw new TemplateResolutionException("global_assets." + kind.listName() + "[" + i
                            + "] is out of range: " + useCase + " takes " + count(declared.size(), kind));
                }
            }
            List<String> urls = new ArrayList<>();
            for (int i = 0; i < declared.size(); i++) {
                String where = "global_assets." + kind.listName() + "[" + i + "]";
                TemplateDefinition.AssetSlot slot = declared.get(i);
                String url = i < given.size() && !given.get(i).isBlank()
                        ? VendorInput.requireAssetUrl(given.get(i), where)
                        : slot.defaultUrl();
                if (url == null && slot.requiredOrFalse()) {
                    throw new TemplateResolutionException(where + " is required by " + useCase);
                }
                urls.add(url);
            }
            slots.put(kind, urls);
        }
        return slots;
    }

    static String count(int n, AssetKind kind) {
        return n == 0 ? "no " + kind.listName() : n == 1 ? "1 " + kind.singular() : n + " " + kind.listName();
    }

    /** The request's directives by segment id, checked, with texts cleaned and URLs stripped. */
    static Map<String, FrameSegment> directives(TemplateDefinition template, RenderInput input,
            String useCase) {
        Map<String, TemplateDefinition.Segment> byId = new LinkedHashMap<>();
        template.segmentsOrEmpty().forEach(segment -> byId.put(segment.id(), segment));
        Set<String> fieldNames = Set.copyOf(template.fieldsOrEmpty().stream().map(TemplateDefinition.Field::name)
                .toList());
        Map<String, FrameSegment> directives = new HashMap<>();
        for (int i = 0; i < input.frameSegments().size(); i++) {
            FrameSegment directive = input.frameSegments().get(i);
            String where = "frame_segments[" + i + "]";
            if (VendorInput.isBlank(directive.segmentId())) {
                throw new TemplateResolutionException(where + ".segment_id is required");
            }
            TemplateDefinition.Segment segment = byId.get(directive.segmentId());
            if (segment == null) {
                throw new TemplateResolutionException(where + ".segment_id: " + useCase + " has no segment '"
                        + directive.segmentId() + "' (segments: " + String.join(", ", byId.keySet()) + ")");
            }
            if (directives.containsKey(segment.id())) {
                throw new TemplateResolutionException(
                        where + ".segment_id: segment '" + segment.id() + "' is named twice");
            }
            if (directive.duration() != null && (directive.duration() < TemplateLimits.MIN_SEGMENT_DURATION
                    || directive.duration() > TemplateLimits.MAX_DURATION)) {
                throw new TemplateResolutionException(where + ".duration must be from "
                        + TemplateResolver.seconds(TemplateLimits.MIN_SEGMENT_DURATION) + " to "
                        + TemplateResolver.seconds(TemplateLimits.MAX_DURATION) + " seconds");
            }
            List<TemplateDefinition.Layer> layers = allLayers(segment);
            Map<String, String> texts = new LinkedHashMap<>();
            if (directive.texts() != null) {
                directive.texts().forEach((layerId, given) -> {
                    String at = where + ".texts." + layerId;
                    if (layers.stream().noneMatch(l -> l.layerType() == LayerType.TEXT && layerId.equals(l.id()))) {
                        throw new TemplateResolutionException(
                                at + ": segment '" + segment.id() + "' has no text layer '" + layerId + "'");
                    }
                    String text = given == null ? "" : VendorInput.cleanText(given);
                    if (VendorInput.length(text) > TemplateLimits.MAX_TEXT) {
                        throw new TemplateResolutionException(
                                at + " is longer than " + TemplateLimits.MAX_TEXT + " characters");
                    }
                    Matcher placeholder = Placeholders.PATTERN.matcher(text);
                    while (placeholder.find()) {
                        if (!fieldNames.contains(placeholder.group(1))) {
                            throw new TemplateResolutionException(
                                    at + ": {{" + placeholder.group(1) + "}} is not a field of " + useCase);
                        }
                    }
                    texts.put(layerId, text);
                });
            }
            Map<String, String> assets = new LinkedHashMap<>();
            if (directive.assets() != null) {
                directive.assets().forEach((key, url) -> {
                    String at = where + ".assets." + key;
                    if (TemplateResolver.BACKGROUND.equals(key)) {
                        if (!hasPictureBackground(segment)) {
                            throw new TemplateResolutionException(
                                    at + ": segment '" + segment.id() + "' has no image or video background");
                        }
                    } else if (layers.stream().noneMatch(l -> l.assetKind() != null && key.equals(l.id()))) {
                        throw new TemplateResolutionException(
                                at + ": segment '" + segment.id() + "' has no image, icon or video layer '" + key
                                        + "'");
                    }
                    assets.put(key, VendorInput.requireAssetUrl(url, at));
                });
            }
            directives.put(segment.id(), new FrameSegment(segment.id(), directive.order(),
                    directive.skip(), directive.duration(), texts, assets));
        }
        return directives;
    }

    static List<TemplateDefinition.Layer> allLayers(TemplateDefinition.Segment segment) {
        List<TemplateDefinition.Layer> layers = new ArrayList<>(segment.layersOrEmpty());
        segment.variantsOrEmpty().stream().filter(v -> v.layers() != null).forEach(v -> layers.addAll(v.layers()));
        return layers;
    }

    static boolean hasPictureBackground(TemplateDefinition.Segment segment) {
        List<TemplateDefinition.Background> backgrounds = new ArrayList<>();
        backgrounds.add(segment.background());
        segment.variantsOrEmpty().forEach(v -> backgrounds.add(v.background()));
        return backgrounds.stream().anyMatch(b -> b != null && (b.image() != null || b.video() != null));
    }
}
