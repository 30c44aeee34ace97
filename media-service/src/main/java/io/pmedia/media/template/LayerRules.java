package io.pmedia.media.template;

import static io.pmedia.media.template.TemplateLimits.MAX_COORDINATE;
import static io.pmedia.media.template.TemplateLimits.MAX_LAYERS;
import static io.pmedia.media.template.TemplateLimits.MAX_SPEECH_RATE;
import static io.pmedia.media.template.TemplateLimits.MAX_TEXT;
import static io.pmedia.media.template.TemplateLimits.MIN_SPEECH_RATE;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The rules of a segment's layers for {@link TemplateValidator}: what every layer takes (id, timing, fades), and the
 * keys of text, speech and picture layers; the graphics engine's keys are {@link GraphicsKeys}', a lottie layer's
 * {@link LottieKeys}'. Each problem is named by its JSON path.
 */
final class LayerRules {

    private LayerRules() {
    }

    static void layers(List<TemplateDefinition.Layer> layers, String path, double segmentDuration,
            TemplateDefinition template, Set<String> fieldNames, TemplateValidator.Registered registered,
            List<String> problems) {
        if (layers.size() > MAX_LAYERS) {
            problems.add(path + ": at most " + MAX_LAYERS + " layers");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < layers.size(); i++) {
            TemplateDefinition.Layer layer = layers.get(i);
            String at = path + "[" + i + "]";
            if (layer == null || layer.layerType() == null) {
                problems.add(at + ".type: one of text, image, icon, video, speech, shape, lottie");
                continue;
            }
            if (layer.id() != null && !TemplateValidator.ID.matcher(layer.id()).matches()) {
                problems.add(at + ".id: letters, digits, '_' and '-', at most 64");
            } else if (layer.id() != null && !ids.add(layer.id())) {
                problems.add(at + ".id: '" + layer.id() + "' is used twice in this segment");
            } else if (TemplateResolver.BACKGROUND.equals(layer.id())) {
                problems.add(at + ".id: 'background' is reserved (frame_segments use it for the background)");
            }
            double start = layer.start() == null ? 0 : layer.start();
            double end = layer.end() == null ? segmentDuration : layer.end();
            if (start < 0 || end > segmentDuration + 1e-9 || end <= start) {
                problems.add(at + ": start and end (seconds) must satisfy 0 <= start < end <= "
                        + TemplateResolver.seconds(segmentDuration) + " (the segment's duration)");
            } else {
                fades(layer.fade(), layer.fadeIn(), layer.fadeOut(), end - start, at, "the layer's time on screen",
                        problems);
            }
            if (layer.layerType() == LayerType.LOTTIE) {
                LottieKeys.lottie(layer, at, template, fieldNames, registered.motions(), problems);
            } else {
                LottieKeys.notLottie(layer, at, problems);
            }
            if (layer.layerType() == LayerType.SPEECH) {
                speech(layer, at, fieldNames, problems);
            } else if (layer.layerType() == LayerType.TEXT) {
                text(layer, at, fieldNames, registered.fonts(), problems);
            } else if (layer.layerType() == LayerType.SHAPE) {
                GraphicsKeys.shape(layer, at, problems);
            } else if (layer.layerType() != LayerType.LOTTIE) {
                picture(layer, at, template, problems);
            }
            GraphicsKeys.motion(layer, at, end - start, problems);
            if (layer.layerType() != LayerType.SPEECH && (layer.voice() != null || layer.rate() != null)) {
                problems.add(at + ": voice and rate are for speech layers");
            }
            if (layer.motion() != null && layer.layerType() != LayerType.IMAGE
                    && layer.layerType() != LayerType.ICON && layer.layerType() != LayerType.LOTTIE) {
                problems.add(at + ".motion: only image and icon layers move");
            } else if (layer.motion() != null && layer.layerType() != LayerType.LOTTIE
                    && Motion.ofWire(layer.motion()) == null) {
                problems.add(at + ".motion: one of zoom-in, zoom-out, pan-left, pan-right");
            } else if (layer.motion() != null && layer.layerType() != LayerType.LOTTIE && layer.keyframes() != null) {
                problems.add(at + ": motion and keyframes together: a picture moves by one or the other");
            }
        }
    }

    static void fades(Double fade, Double fadeIn, Double fadeOut, double span, String path, String what,
            List<String> problems) {
        Map<String, Double> given = new LinkedHashMap<>();
        given.put("fade", fade);
        given.put("fade-in", fadeIn);
        given.put("fade-out", fadeOut);
        given.forEach((key, seconds) -> {
            if (seconds != null && seconds < 0) {
                problems.add(path + "." + key + ": seconds, at least 0");
            }
        });
        double in = Math.max(0, fadeIn != null ? fadeIn : fade != null ? fade : 0);
        double out = Math.max(0, fadeOut != null ? fadeOut : fade != null ? fade : 0);
        if (in + out > span + 1e-9) {
            problems.add(path + ": fade-in and fade-out together are longer than " + what);
        }
    }

    private static void speech(TemplateDefinition.Layer layer, String at, Set<String> fieldNames,
            List<String> problems) {
        placeholders(layer, at, fieldNames, problems);
        if (layer.voice() != null && !TemplateValidator.VOICE.matcher(layer.voice()).matches()) {
            problems.add(at + ".voice: an espeak-ng voice name such as en, en-us or de");
        }
        if (layer.rate() != null && (layer.rate() < MIN_SPEECH_RATE || layer.rate() > MAX_SPEECH_RATE)) {
            problems.add(at + ".rate: from " + MIN_SPEECH_RATE + " to " + MAX_SPEECH_RATE + " words per minute");
        }
        Map<String, Object> drawn = new LinkedHashMap<>();
        drawn.put("font", layer.font());
        drawn.put("size", layer.size());
        drawn.put("color", layer.color());
        drawn.put("x", layer.x());
        drawn.put("y", layer.y());
        drawn.put("width", layer.width());
        drawn.put("height", layer.height());
        drawn.put("asset", layer.asset());
        drawn.put("fade", layer.fade());
        drawn.put("fade-in", layer.fadeIn());
        drawn.put("fade-out", layer.fadeOut());
        refuse(drawn, at, ": a speech layer is heard, not drawn", problems);
    }

    private static void placeholders(TemplateDefinition.Layer layer, String at, Set<String> fieldNames,
            List<String> problems) {
        if (layer.text() == null || layer.text().isBlank() || layer.text().length() > MAX_TEXT) {
            problems.add(at + ".text: required, at most " + MAX_TEXT + " characters");
        } else {
            Matcher placeholder = Placeholders.PATTERN.matcher(layer.text());
            while (placeholder.find()) {
                if (!fieldNames.contains(placeholder.group(1))) {
                    problems.add(at + ".text: {{" + placeholder.group(1) + "}} is not a declared field");
                }
            }
        }
    }

    private static void text(TemplateDefinition.Layer layer, String at, Set<String> fieldNames, Set<String> fonts,
            List<String> problems) {
        placeholders(layer, at, fieldNames, problems);
        if (layer.font() != null && TextFont.named(layer.font()) == null && !fonts.contains(layer.font())) {
            List<String> known = new ArrayList<>(TextFont.names());
            fonts.stream().sorted().forEach(known::add);
            problems.add(at + ".font: unknown font '" + layer.font() + "' (fonts: " + String.join(", ", known) + ")");
        }
        int size = layer.size() == null ? TemplateResolver.DEFAULT_TEXT_SIZE : layer.size();
        if (layer.size() != null && (layer.size() < 6 || layer.size() > 400)) {
            problems.add(at + ".size: from 6 to 400 pixels");
        }
        color(layer.color(), at + ".color", problems);
        color(layer.boxColor(), at + ".box-color", problems);
        color(layer.shadowColor(), at + ".shadow-color", problems);
        position(layer.x(), at + ".x", Set.of("left", "center", "right"), problems);
        position(layer.y(), at + ".y", Set.of("top", "center", "bottom"), problems);
        if (layer.align() != null && !TemplateValidator.ALIGNS.contains(layer.align())) {
            problems.add(at + ".align: one of left, center, right");
        }
        if (layer.maxWidth() != null && (layer.maxWidth() < 16 || layer.maxWidth() > MAX_COORDINATE)) {
            problems.add(at + ".max-width: from 16 to " + MAX_COORDINATE + " pixels");
        }
        if (layer.maxLines() != null && (layer.maxLines() < 1 || layer.maxLines() > 10)) {
            problems.add(at + ".max-lines: from 1 to 10");
        }
        if (layer.minSize() != null && (layer.minSize() < 6 || layer.minSize() > size)) {
            problems.add(at + ".min-size: from 6 to the layer's size (" + size + ")");
        }
        if (layer.lineHeight() != null && (layer.lineHeight() < 0.8 || layer.lineHeight() > 3)) {
            problems.add(at + ".line-height: from 0.8 to 3 (times the size)");
        }
        List<String> misplaced = new ArrayList<>();
        if (layer.width() != null) {
            misplaced.add("width");
        }
        if (layer.height() != null) {
            misplaced.add("height");
        }
        if (layer.fit() != null) {
            misplaced.add("fit");
        }
        if (layer.asset() != null) {
            misplaced.add("asset");
        }
        misplaced.forEach(key -> problems.add(at + "." + key + ": only image, icon and video layers take it"));
    }

    private static void picture(TemplateDefinition.Layer layer, String at, TemplateDefinition template,
            List<String> problems) {
        AssetKind kind = layer.assetKind();
        if (layer.asset() == null) {
            problems.add(at + ".asset: the index of a slot of assets." + kind.listName() + " is required");
        } else {
            slotIndex(layer.asset(), kind, at + ".asset", template, problems);
        }
        box(layer, at, problems);
        Map<String, Object> textOnly = new LinkedHashMap<>();
        textOnly.put("text", layer.text());
        textOnly.put("font", layer.font());
        textOnly.put("size", layer.size());
        textOnly.put("color", layer.color());
        textOnly.put("box-color", layer.boxColor());
        textOnly.put("box-fill", layer.boxFill());
        textOnly.put("shadow-color", layer.shadowColor());
        textOnly.put("align", layer.align());
        textOnly.put("max-width", layer.maxWidth());
        textOnly.put("max-lines", layer.maxLines());
        textOnly.put("min-size", layer.minSize());
        textOnly.put("line-height", layer.lineHeight());
        refuse(textOnly, at, ": only text layers take it", problems);
    }

    static void slotIndex(Integer index, AssetKind kind, String path, TemplateDefinition template,
            List<String> problems) {
        if (index != null && (index < 0 || index >= template.assetsOrEmpty().of(kind).size())) {
            problems.add(path + ": there is no slot assets." + kind.listName() + "[" + index + "]");
        }
    }

    static void color(String value, String path, List<String> problems) {
        if (value != null && !TemplateValidator.COLOR.matcher(value).matches()) {
            problems.add(path + ": a colour #rrggbb or #rrggbbaa, like #1d3557");
        }
    }

    static void position(JsonNode value, String path, Set<String> words, List<String> problems) {
        if (value == null || value.isNull()) {
            return;
        }
        if (value.isIntegralNumber() && Math.abs(value.asLong()) <= MAX_COORDINATE) {
            return;
        }
        if (value.isTextual() && words.contains(value.asText().toLowerCase(Locale.ROOT))) {
            return;
        }
        problems.add(path + ": whole pixels (at most " + MAX_COORDINATE + " either way) or one of "
                + String.join(", ", words.stream().sorted().toList()));
    }

    /**
     * The box a picture or a lottie layer is fitted into: {@code width} and {@code height} (required), {@code fit},
     * {@code x} and {@code y} (pixels or {@code center}).
     */
    static void box(TemplateDefinition.Layer layer, String at, List<String> problems) {
        if (layer.width() == null || layer.width() < 2 || layer.width() > MAX_COORDINATE) {
            problems.add(at + ".width: required, from 2 to " + MAX_COORDINATE + " pixels");
        }
        if (layer.height() == null || layer.height() < 2 || layer.height() > MAX_COORDINATE) {
            problems.add(at + ".height: required, from 2 to " + MAX_COORDINATE + " pixels");
        }
        if (PictureFit.ofWire(layer.fit()) == null) {
            problems.add(at + ".fit: one of contain, cover, stretch");
        }
        position(layer.x(), at + ".x", Set.of("center"), problems);
        position(layer.y(), at + ".y", Set.of("center"), problems);
    }

    /**
     * Each of {@code keys} that is given (not null) is a problem at {@code at.<key>}: the layer does not take it
     * ({@code why}, e.g. ": only text layers take it").
     */
    static void refuse(Map<String, Object> keys, String at, String why, List<String> problems) {
        keys.forEach((key, value) -> {
            if (value != null) {
                problems.add(at + "." + key + why);
            }
        });
    }
}
