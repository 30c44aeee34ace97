package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.media.render.Fonts;

/**
 * Checks a template before it is stored, and says everything that is wrong at once, each problem with its JSON
 * path ({@code segments[2].layers[0].font: unknown font 'x'}). A template that passes always compiles.
 */
public final class TemplateValidator {

    public static final int MAX_WIDTH = 1920;
    public static final int MAX_HEIGHT = 1920;
    public static final int MAX_PIXELS = 1920 * 1080;
    public static final int MAX_FPS = 60;
    public static final double MAX_DURATION = 120;
    public static final int MAX_SEGMENTS = 30;
    public static final int MAX_LAYERS = 20;
    public static final int MAX_SLOTS = 10;
    public static final int MAX_TEXT = 500;

    static final Pattern USE_CASE_ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?");
    static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)\\s*}}");
    static final Set<String> LAYER_TYPES = Set.of("text", "image", "icon", "video");
    static final Set<String> FITS = Set.of("contain", "cover", "stretch");

    private TemplateValidator() {
    }

    public static List<String> validate(TemplateDefinition template) {
        List<String> problems = new ArrayList<>();
        if (template == null) {
            return List.of("body: a template definition is required");
        }
        if (template.useCaseId() == null || !USE_CASE_ID.matcher(template.useCaseId()).matches()) {
            problems.add("use-case-id: required; lower-case letters, digits, '.', '_' or '-', at most 64");
        }
        if (template.name() == null || template.name().isBlank() || template.name().length() > 200) {
            problems.add("name: required, at most 200 characters");
        }
        canvas(template.canvas(), problems);
        Set<String> fieldNames = fields(template, problems);
        slots(template.assetsOrEmpty(), problems);
        audio(template.audio(), problems);
        segments(template, fieldNames, problems);
        earlierForm(template, fieldNames, problems);
        return problems;
    }

    private static void canvas(TemplateDefinition.Canvas canvas, List<String> problems) {
        if (canvas == null) {
            problems.add("canvas: required (width, height, fps, background)");
            return;
        }
        if (canvas.width() < 16 || canvas.width() > MAX_WIDTH || canvas.width() % 2 != 0) {
            problems.add("canvas.width: an even number of pixels from 16 to " + MAX_WIDTH);
        }
        if (canvas.height() < 16 || canvas.height() > MAX_HEIGHT || canvas.height() % 2 != 0) {
            problems.add("canvas.height: an even number of pixels from 16 to " + MAX_HEIGHT);
        }
        if ((long) canvas.width() * canvas.height() > MAX_PIXELS) {
            problems.add("canvas: at most " + MAX_PIXELS + " pixels (1920x1080 or 1080x1920)");
        }
        if (canvas.fps() < 1 || canvas.fps() > MAX_FPS) {
            problems.add("canvas.fps: from 1 to " + MAX_FPS);
        }
        if (canvas.background() != null && !COLOR.matcher(canvas.background()).matches()) {
            problems.add("canvas.background: a colour like #1d3557");
        }
    }

    private static Set<String> fields(TemplateDefinition template, List<String> problems) {
        Set<String> names = new HashSet<>();
        List<TemplateDefinition.Field> fields = template.fieldsOrEmpty();
        for (int i = 0; i < fields.size(); i++) {
            TemplateDefinition.Field field = fields.get(i);
            String path = "fields[" + i + "]";
            if (field == null || field.name() == null || !ID.matcher(field.name()).matches()) {
                problems.add(path + ".name: required; letters, digits, '_' or '-'");
                continue;
            }
            if (!names.add(field.name())) {
                problems.add(path + ".name: '" + field.name() + "' is declared twice");
            }
            if (field.maxLength() != null && (field.maxLength() < 1 || field.maxLength() > MAX_TEXT)) {
                problems.add(path + ".max-length: from 1 to " + MAX_TEXT);
            }
            if (field.defaultValue() != null && field.defaultValue().length() > field.maxLengthOrDefault()) {
                problems.add(path + ".default: longer than max-length");
            }
        }
        return names;
    }

    private static void slots(TemplateDefinition.AssetSlots slots, List<String> problems) {
        for (AssetKind kind : AssetKind.values()) {
            List<TemplateDefinition.AssetSlot> list = slots.of(kind);
            if (list.size() > MAX_SLOTS) {
                problems.add("assets." + kind.listName() + ": at most " + MAX_SLOTS + " slots");
            }
            for (int i = 0; i < list.size(); i++) {
                TemplateDefinition.AssetSlot slot = list.get(i);
                if (slot != null && slot.defaultUrl() != null && !isHttpUrl(slot.defaultUrl())) {
                    problems.add("assets." + kind.listName() + "[" + i + "].default: an http(s) URL");
                }
            }
        }
    }

    private static void audio(TemplateDefinition.Audio audio, List<String> problems) {
        if (audio == null || audio.type() == null) {
            return;
        }
        if (!Set.of("silence", "tone").contains(audio.type())) {
            problems.add("audio.type: 'silence' or 'tone'");
        }
        if (audio.frequency() != null && (audio.frequency() < 20 || audio.frequency() > 20000)) {
            problems.add("audio.frequency: from 20 to 20000 Hz");
        }
        if (audio.volume() != null && (audio.volume() < 0 || audio.volume() > 1)) {
            problems.add("audio.volume: from 0 to 1");
        }
    }

    private static void segments(TemplateDefinition template, Set<String> fieldNames, List<String> problems) {
        List<TemplateDefinition.Segment> segments = template.segments();
        if (segments == null || segments.isEmpty()) {
            problems.add("segments: at least one segment is required");
            return;
        }
        if (segments.size() > MAX_SEGMENTS) {
            problems.add("segments: at most " + MAX_SEGMENTS);
        }
        if (template.durationSeconds() > MAX_DURATION) {
            problems.add("segments: the total duration is at most " + (int) MAX_DURATION + " s");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < segments.size(); i++) {
            TemplateDefinition.Segment segment = segments.get(i);
            String path = "segments[" + i + "]";
            if (segment == null) {
                problems.add(path + ": must be an object");
                continue;
            }
            if (segment.id() == null || !ID.matcher(segment.id()).matches()) {
                problems.add(path + ".id: required; letters, digits, '_' or '-'");
            } else if (!ids.add(segment.id())) {
                problems.add(path + ".id: '" + segment.id() + "' is used twice");
            }
            if (segment.duration() < 0.1 || segment.duration() > MAX_DURATION) {
                problems.add(path + ".duration: seconds, from 0.1 to " + (int) MAX_DURATION);
            }
            background(segment.background(), path + ".background", template, problems);
            layers(segment.layersOrEmpty(), path + ".layers", segment.duration(), template, fieldNames, problems);
            List<TemplateDefinition.Variant> variants = segment.variantsOrEmpty();
            for (int v = 0; v < variants.size(); v++) {
                TemplateDefinition.Variant variant = variants.get(v);
                String variantPath = path + ".variants[" + v + "]";
                if (variant == null || variant.cohort() == null || variant.cohort().isBlank()) {
                    problems.add(variantPath + ".cohort: required");
                    continue;
                }
                background(variant.background(), variantPath + ".background", template, problems);
                if (variant.layers() != null) {
                    layers(variant.layers(), variantPath + ".layers", segment.duration(), template, fieldNames,
                            problems);
                }
            }
        }
    }

    private static void background(TemplateDefinition.Background background, String path,
            TemplateDefinition template, List<String> problems) {
        if (background == null) {
            return;
        }
        int set = (background.color() != null ? 1 : 0) + (background.image() != null ? 1 : 0)
                + (background.video() != null ? 1 : 0);
        if (set != 1) {
            problems.add(path + ": exactly one of color, image, video");
        }
        if (background.color() != null && !COLOR.matcher(background.color()).matches()) {
            problems.add(path + ".color: a colour like #1d3557");
        }
        slotIndex(background.image(), AssetKind.IMAGE, path + ".image", template, problems);
        slotIndex(background.video(), AssetKind.VIDEO, path + ".video", template, problems);
    }

    private static void layers(List<TemplateDefinition.Layer> layers, String path, double segmentDuration,
            TemplateDefinition template, Set<String> fieldNames, List<String> problems) {
        if (layers.size() > MAX_LAYERS) {
            problems.add(path + ": at most " + MAX_LAYERS + " layers");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < layers.size(); i++) {
            TemplateDefinition.Layer layer = layers.get(i);
            String at = path + "[" + i + "]";
            if (layer == null || layer.type() == null || !LAYER_TYPES.contains(layer.type())) {
                problems.add(at + ".type: one of text, image, icon, video");
                continue;
            }
            if (layer.id() != null && (!ID.matcher(layer.id()).matches() || !ids.add(layer.id()))) {
                problems.add(at + ".id: letters, digits, '_' or '-', unique within the segment");
            }
            double start = layer.start() == null ? 0 : layer.start();
            double end = layer.end() == null ? segmentDuration : layer.end();
            if (start < 0 || end > segmentDuration + 1e-9 || end <= start) {
                problems.add(at + ": start and end must satisfy 0 <= start < end <= the segment's duration");
            }
            if (layer.fade() != null && (layer.fade() < 0 || layer.fade() * 2 > end - start + 1e-9)) {
                problems.add(at + ".fade: from 0 to half the layer's time on screen");
            }
            if (layer.type().equals("text")) {
                text(layer, at, fieldNames, problems);
            } else {
                picture(layer, at, template, problems);
            }
        }
    }

    private static void text(TemplateDefinition.Layer layer, String at, Set<String> fieldNames,
            List<String> problems) {
        if (layer.text() == null || layer.text().isEmpty() || layer.text().length() > MAX_TEXT) {
            problems.add(at + ".text: required, at most " + MAX_TEXT + " characters");
        } else {
            Matcher placeholder = PLACEHOLDER.matcher(layer.text());
            while (placeholder.find()) {
                if (!fieldNames.contains(placeholder.group(1))) {
                    problems.add(at + ".text: {{" + placeholder.group(1) + "}} is not a declared field");
                }
            }
        }
        if (layer.font() != null && !Fonts.isKnown(layer.font())) {
            problems.add(at + ".font: unknown font '" + layer.font() + "'; one of " + Fonts.names());
        }
        if (layer.size() != null && (layer.size() < 6 || layer.size() > 400)) {
            problems.add(at + ".size: from 6 to 400 pixels");
        }
        if (layer.color() != null && !COLOR.matcher(layer.color()).matches()) {
            problems.add(at + ".color: a colour like #ffffff");
        }
        if (layer.boxColor() != null && !COLOR.matcher(layer.boxColor()).matches()) {
            problems.add(at + ".box-color: a colour like #00000080");
        }
        position(layer.x(), at + ".x", Set.of("center", "left", "right"), problems);
        position(layer.y(), at + ".y", Set.of("center", "top", "bottom"), problems);
    }

    private static void picture(TemplateDefinition.Layer layer, String at, TemplateDefinition template,
            List<String> problems) {
        AssetKind kind = switch (layer.type()) {
            case "video" -> AssetKind.VIDEO;
            case "icon" -> AssetKind.ICON;
            default -> AssetKind.IMAGE;
        };
        if (layer.asset() == null) {
            problems.add(at + ".asset: the index of a " + kind.listName() + " slot is required");
        } else {
            slotIndex(layer.asset(), kind, at + ".asset", template, problems);
        }
        if (layer.width() == null || layer.height() == null || layer.width() < 2 || layer.height() < 2
                || layer.width() > MAX_WIDTH || layer.height() > MAX_HEIGHT) {
            problems.add(at + ": width and height (pixels) are required");
        }
        if (layer.fit() != null && !FITS.contains(layer.fit())) {
            problems.add(at + ".fit: one of contain, cover, stretch");
        }
        position(layer.x(), at + ".x", Set.of("center"), problems);
        position(layer.y(), at + ".y", Set.of("center"), problems);
    }

    private static void slotIndex(Integer index, AssetKind kind, String path, TemplateDefinition template,
            List<String> problems) {
        if (index != null && (index < 0 || index >= template.assetsOrEmpty().of(kind).size())) {
            problems.add(path + ": no slot assets." + kind.listName() + "[" + index + "]");
        }
    }

    private static void position(JsonNode value, String path, Set<String> words, List<String> problems) {
        if (value == null || value.isNull()) {
            return;
        }
        if (value.isInt() && value.asInt() >= -4000 && value.asInt() <= 4000) {
            return;
        }
        if (value.isTextual() && words.contains(value.asText().toLowerCase(Locale.ROOT))) {
            return;
        }
        problems.add(path + ": pixels or one of " + words);
    }

    private static void earlierForm(TemplateDefinition template, Set<String> fieldNames, List<String> problems) {
        TemplateDefinition.EarlierForm form = template.earlierForm();
        if (form == null) {
            return;
        }
        check(form.phraseTexts(), "earlier-form.phrase-texts", fieldNames, problems);
        check(form.imageTexts(), "earlier-form.image-texts", fieldNames, problems);
        check(form.videoTexts(), "earlier-form.video-texts", fieldNames, problems);
    }

    private static void check(List<String> names, String path, Set<String> fieldNames, List<String> problems) {
        if (names == null) {
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            if (!fieldNames.contains(names.get(i))) {
                problems.add(path + "[" + i + "]: '" + names.get(i) + "' is not a declared field");
            }
        }
    }

    static boolean isHttpUrl(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        return lower.startsWith("http://") || lower.startsWith("https://");
    }
}
