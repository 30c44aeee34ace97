package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Applies one customer's data to a template: fills fields and asset slots, picks cohort variants, applies
 * {@code frame_segments}, and fails with a message naming the problem when the data cannot serve the template.
 * Pure and deterministic: no I/O, so it runs at acceptance (to refuse early) and again in the render worker.
 */
public final class TemplateResolver {

    static final int DEFAULT_TEXT_SIZE = 48;
    static final String DEFAULT_TEXT_COLOR = "#ffffff";
    static final String DEFAULT_BACKGROUND = "#000000";

    private TemplateResolver() {
    }

    public static ResolvedVideo resolve(TemplateDefinition template, RenderInput input) {
        Map<String, String> fields = fields(template, input);
        Map<AssetKind, List<String>> slots = slots(template, input);
        Map<String, MediaData.FrameSegment> directives = directives(template, input);

        List<ResolvedVideo.Segment> segments = new ArrayList<>();
        List<TemplateDefinition.Segment> ordered = order(template.segments(), directives);
        for (TemplateDefinition.Segment segment : ordered) {
            MediaData.FrameSegment directive = directives.get(segment.id());
            if (directive != null && Boolean.TRUE.equals(directive.skip())) {
                continue;
            }
            segments.add(segment(template, segment, directive, input.cohorts(), fields, slots));
        }
        if (segments.isEmpty()) {
            throw new TemplateResolutionException("frame_segments skip every segment of template '"
                    + template.useCaseId() + "'");
        }
        double total = segments.stream().mapToDouble(ResolvedVideo.Segment::duration).sum();
        if (total > TemplateValidator.MAX_DURATION) {
            throw new TemplateResolutionException("the video would last " + Math.round(total) + " s; at most "
                    + (int) TemplateValidator.MAX_DURATION + " s");
        }
        return new ResolvedVideo(template.canvas(), segments, template.audio());
    }

    private static Map<String, String> fields(TemplateDefinition template, RenderInput input) {
        Map<String, String> values = new HashMap<>();
        for (TemplateDefinition.Field field : template.fieldsOrEmpty()) {
            String value = input.fields().get(field.name());
            value = value == null ? null : clean(value);
            if (value == null || value.isBlank()) {
                value = field.defaultValue();
            }
            if (field.isRequired() && (value == null || value.isBlank())) {
                throw new TemplateResolutionException("personalization field '" + field.name()
                        + "' is required by use case '" + template.useCaseId() + "'");
            }
            if (value != null && value.length() > field.maxLengthOrDefault()) {
                throw new TemplateResolutionException("personalization field '" + field.name() + "' is longer than "
                        + field.maxLengthOrDefault() + " characters");
            }
            values.put(field.name(), value == null ? "" : value);
        }
        return values;
    }

    private static Map<AssetKind, List<String>> slots(TemplateDefinition template, RenderInput input) {
        Map<AssetKind, List<String>> slots = new HashMap<>();
        for (AssetKind kind : AssetKind.values()) {
            List<TemplateDefinition.AssetSlot> declared = template.assetsOrEmpty().of(kind);
            List<String> given = input.assets(kind);
            List<String> urls = new ArrayList<>();
            for (int i = 0; i < declared.size(); i++) {
                String url = i < given.size() && !given.get(i).isBlank() ? given.get(i).strip() : null;
                String where = "global_assets." + kind.listName() + "[" + i + "]";
                if (url != null) {
                    checkUrl(url, where);
                } else {
                    TemplateDefinition.AssetSlot slot = declared.get(i);
                    url = slot == null ? null : slot.defaultUrl();
                    if (url == null && slot != null && slot.isRequired()) {
                        throw new TemplateResolutionException(where + " is required by use case '"
                                + template.useCaseId() + "'");
                    }
                }
                urls.add(url);
            }
            slots.put(kind, urls);
        }
        return slots;
    }

    private static Map<String, MediaData.FrameSegment> directives(TemplateDefinition template, RenderInput input) {
        Map<String, TemplateDefinition.Segment> byId = new HashMap<>();
        template.segments().forEach(segment -> byId.put(segment.id(), segment));
        Map<String, MediaData.FrameSegment> directives = new HashMap<>();
        for (int i = 0; i < input.frameSegments().size(); i++) {
            MediaData.FrameSegment directive = input.frameSegments().get(i);
            String where = "frame_segments[" + i + "]";
            if (directive == null || directive.segmentId() == null || directive.segmentId().isBlank()) {
                throw new TemplateResolutionException(where + ".segment_id is required");
            }
            TemplateDefinition.Segment segment = byId.get(directive.segmentId());
            if (segment == null) {
                throw new TemplateResolutionException(where + ".segment_id: no segment '" + directive.segmentId()
                        + "' in use case '" + template.useCaseId() + "' (segments: "
                        + String.join(", ", template.segments().stream().map(TemplateDefinition.Segment::id).toList())
                        + ")");
            }
            if (directives.put(segment.id(), directive) != null) {
                throw new TemplateResolutionException(where + ": segment '" + segment.id() + "' is named twice");
            }
            if (directive.duration() != null
                    && (directive.duration() < 0.1 || directive.duration() > TemplateValidator.MAX_DURATION)) {
                throw new TemplateResolutionException(where + ".duration: seconds, from 0.1 to "
                        + (int) TemplateValidator.MAX_DURATION);
            }
            Map<String, TemplateDefinition.Layer> layers = layersById(segment);
            if (directive.texts() != null) {
                directive.texts().forEach((layerId, text) -> {
                    TemplateDefinition.Layer layer = layers.get(layerId);
                    if (layer == null || !"text".equals(layer.type())) {
                        throw new TemplateResolutionException(where + ".texts: segment '" + segment.id()
                                + "' has no text layer '" + layerId + "'");
                    }
                    if (text == null || text.length() > TemplateValidator.MAX_TEXT) {
                        throw new TemplateResolutionException(where + ".texts." + layerId + ": at most "
                                + TemplateValidator.MAX_TEXT + " characters");
                    }
                });
            }
            if (directive.assets() != null) {
                directive.assets().forEach((layerId, url) -> {
                    TemplateDefinition.Layer layer = layers.get(layerId);
                    if (layer == null || "text".equals(layer.type())) {
                        throw new TemplateResolutionException(where + ".assets: segment '" + segment.id()
                                + "' has no image or video layer '" + layerId + "'");
                    }
                    checkUrl(url, where + ".assets." + layerId);
                });
            }
        }
        return directives;
    }

    /** Directives with an {@code order} come first, ascending; the other segments keep the template's order. */
    private static List<TemplateDefinition.Segment> order(List<TemplateDefinition.Segment> segments,
            Map<String, MediaData.FrameSegment> directives) {
        List<TemplateDefinition.Segment> ordered = new ArrayList<>(segments);
        Map<String, Long> keys = new HashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            MediaData.FrameSegment directive = directives.get(segments.get(i).id());
            long key = directive != null && directive.order() != null ? directive.order() : 1_000_000L + i;
            keys.put(segments.get(i).id(), key);
        }
        ordered.sort(Comparator.comparingLong(segment -> keys.get(segment.id())));
        return ordered;
    }

    private static ResolvedVideo.Segment segment(TemplateDefinition template, TemplateDefinition.Segment segment,
            MediaData.FrameSegment directive, Set<String> cohorts, Map<String, String> fields,
            Map<AssetKind, List<String>> slots) {
        TemplateDefinition.Background background = segment.background();
        List<TemplateDefinition.Layer> layers = segment.layersOrEmpty();
        for (TemplateDefinition.Variant variant : segment.variantsOrEmpty()) {
            if (cohorts.contains(variant.cohort())) {
                background = variant.background() != null ? variant.background() : background;
                layers = variant.layers() != null ? variant.layers() : layers;
                break;
            }
        }
        double duration = directive != null && directive.duration() != null
                ? directive.duration()
                : segment.duration();
        List<ResolvedVideo.Layer> resolved = new ArrayList<>();
        for (TemplateDefinition.Layer layer : layers) {
            double start = layer.start() == null ? 0 : layer.start();
            double end = Math.min(layer.end() == null ? segment.duration() : layer.end(), duration);
            if (directive != null && directive.duration() != null && layer.end() == null) {
                end = duration;
            }
            if (start >= end) {
                continue;
            }
            double fade = Math.min(layer.fade() == null ? 0 : layer.fade(), (end - start) / 2);
            if ("text".equals(layer.type())) {
                String text = layer.text();
                if (directive != null && directive.texts() != null && layer.id() != null
                        && directive.texts().containsKey(layer.id())) {
                    text = clean(directive.texts().get(layer.id()));
                }
                text = substitute(text, fields).strip();
                if (text.isEmpty()) {
                    continue;
                }
                resolved.add(new ResolvedVideo.Text(text, layer.font() == null ? "sans" : layer.font(),
                        layer.size() == null ? DEFAULT_TEXT_SIZE : layer.size(),
                        layer.color() == null ? DEFAULT_TEXT_COLOR : layer.color(), layer.boxColor(),
                        position(layer.x()), position(layer.y()), start, end, fade));
            } else {
                AssetKind kind = switch (layer.type()) {
                    case "video" -> AssetKind.VIDEO;
                    case "icon" -> AssetKind.ICON;
                    default -> AssetKind.IMAGE;
                };
                String url = directive != null && directive.assets() != null && layer.id() != null
                        ? directive.assets().get(layer.id())
                        : null;
                if (url == null) {
                    url = slots.get(kind).get(layer.asset());
                }
                if (url == null) {
                    continue;
                }
                resolved.add(new ResolvedVideo.Picture(url.strip(), kind, position(layer.x()), position(layer.y()),
                        layer.width(), layer.height(), layer.fit() == null ? "contain" : layer.fit(), start, end,
                        fade));
            }
        }
        return new ResolvedVideo.Segment(segment.id(), duration, background(template, background, slots), resolved);
    }

    private static ResolvedVideo.Background background(TemplateDefinition template,
            TemplateDefinition.Background background, Map<AssetKind, List<String>> slots) {
        String canvas = template.canvas().background() == null ? DEFAULT_BACKGROUND : template.canvas().background();
        if (background == null) {
            return new ResolvedVideo.Background(canvas, null, null);
        }
        if (background.image() != null && slots.get(AssetKind.IMAGE).get(background.image()) != null) {
            return new ResolvedVideo.Background(canvas, slots.get(AssetKind.IMAGE).get(background.image()),
                    AssetKind.IMAGE);
        }
        if (background.video() != null && slots.get(AssetKind.VIDEO).get(background.video()) != null) {
            return new ResolvedVideo.Background(canvas, slots.get(AssetKind.VIDEO).get(background.video()),
                    AssetKind.VIDEO);
        }
        return new ResolvedVideo.Background(background.color() == null ? canvas : background.color(), null, null);
    }

    static String substitute(String text, Map<String, String> fields) {
        Matcher placeholder = TemplateValidator.PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (placeholder.find()) {
            String value = fields.getOrDefault(placeholder.group(1), "");
            placeholder.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        placeholder.appendTail(out);
        return out.toString();
    }

    /** Keeps text printable: line breaks stay, other control characters go. */
    static String clean(String value) {
        StringBuilder out = new StringBuilder(value.length());
        value.replace("\r\n", "\n").codePoints().forEach(c -> {
            if (c == '\n' || !Character.isISOControl(c)) {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static void checkUrl(String url, String where) {
        if (url == null || url.isBlank()) {
            throw new TemplateResolutionException(where + " is empty");
        }
        String lower = url.strip().toLowerCase(Locale.ROOT);
        if (!(lower.startsWith("http://") || lower.startsWith("https://")) || url.length() > 2048) {
            throw new TemplateResolutionException(where + " is not an http(s) URL");
        }
    }

    private static String position(JsonNode value) {
        if (value == null || value.isNull()) {
            return "center";
        }
        return value.isNumber() ? Integer.toString(value.asInt()) : value.asText().toLowerCase(Locale.ROOT);
    }

    private static Map<String, TemplateDefinition.Layer> layersById(TemplateDefinition.Segment segment) {
        Map<String, TemplateDefinition.Layer> layers = new HashMap<>();
        Set<TemplateDefinition.Layer> all = new HashSet<>(segment.layersOrEmpty());
        segment.variantsOrEmpty().stream().filter(v -> v.layers() != null).forEach(v -> all.addAll(v.layers()));
        for (TemplateDefinition.Layer layer : all) {
            if (layer != null && layer.id() != null) {
                layers.putIfAbsent(layer.id(), layer);
            }
        }
        return layers;
    }
}
