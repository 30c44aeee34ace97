package io.pmedia.media.template;

import static io.pmedia.media.template.TemplateLimits.MAX_TEXT;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The keys of a lottie layer (contracts.md, 2026-11-29; docs/templates.md "Lottie"), checked for
 * {@link TemplateValidator} against the motions the template's owner may name: {@code motion} a registered one,
 * {@code text} keys its text layers or text slots, {@code colors} keys its colour slots, {@code images} keys its
 * image assets, each value of the right kind; the picture keys for the box; {@code speed} and {@code loop}. Each
 * problem is named by its JSON path.
 */
final class LottieKeys {

    /** How much faster or slower than the file a layer may play it. */
    static final double MIN_SPEED = 0.1;
    static final double MAX_SPEED = 10;
    /** How many placeholders of one kind a layer may fill. */
    static final int MAX_FILLED = 50;

    private LottieKeys() {
    }

    /** A lottie layer's own keys. */
    static void lottie(TemplateDefinition.Layer layer, String at, TemplateDefinition template, Set<String> fieldNames,
            Map<String, MotionFacts> motions, List<String> problems) {
        MotionFacts facts = null;
        if (layer.motion() == null || layer.motion().isBlank()) {
            problems.add(at + ".motion: required, the name of a registered Lottie file (POST /motions)");
        } else {
            facts = motions.get(layer.motion());
            if (facts == null) {
                problems.add(at + ".motion: unknown motion '" + layer.motion() + "' ("
                        + (motions.isEmpty()
                                ? "none is registered: POST /motions"
                                : "motions: " + String.join(", ", motions.keySet().stream().sorted().toList()))
                        + ")");
            }
        }
        LayerRules.box(layer, at, problems);
        if (layer.speed() != null && !(layer.speed() >= MIN_SPEED && layer.speed() <= MAX_SPEED)) {
            problems.add(at + ".speed: from " + MIN_SPEED + " to " + MAX_SPEED + " (1: as the file plays)");
        }
        texts(layer.textValue(), at + ".text", facts, fieldNames, problems);
        colors(layer.colors(), at + ".colors", facts, problems);
        images(layer.images(), at + ".images", facts, template, problems);
        Map<String, Object> others = new LinkedHashMap<>();
        others.put("font", layer.font());
        others.put("size", layer.size());
        others.put("color", layer.color());
        others.put("box-color", layer.boxColor());
        others.put("box-fill", layer.boxFill());
        others.put("shadow-color", layer.shadowColor());
        others.put("align", layer.align());
        others.put("max-width", layer.maxWidth());
        others.put("max-lines", layer.maxLines());
        others.put("min-size", layer.minSize());
        others.put("line-height", layer.lineHeight());
        others.put("asset", layer.asset());
        LayerRules.refuse(others, at, ": a lottie layer does not take it", problems);
    }

    /** On another layer, the keys only a lottie layer takes. */
    static void notLottie(TemplateDefinition.Layer layer, String at, List<String> problems) {
        Map<String, Object> lottieOnly = new LinkedHashMap<>();
        lottieOnly.put("images", layer.images());
        lottieOnly.put("colors", layer.colors());
        lottieOnly.put("speed", layer.speed());
        lottieOnly.put("loop", layer.loop());
        LayerRules.refuse(lottieOnly, at, ": only lottie layers take it", problems);
        if (layer.textValue() != null && !layer.textValue().isNull() && !layer.textValue().isTextual()) {
            problems.add(at + ".text: a string" + (layer.textValue().isObject()
                    ? " (an object of texts is for lottie layers)"
                    : ""));
        }
    }

    private static void texts(JsonNode texts, String at, MotionFacts facts, Set<String> fieldNames,
            List<String> problems) {
        for (Map.Entry<String, JsonNode> entry : entries(texts, at, "texts by text layer name or slot id",
                problems)) {
            String path = at + "." + entry.getKey();
            if (facts != null && !facts.takesText(entry.getKey())) {
                problems.add(path + ": the motion has no text layer or text slot of that name (" + list(
                        join(facts.textLayers(), slotsOf(facts, "text"))) + ")");
            }
            JsonNode value = entry.getValue();
            if (!value.isTextual() || value.asText().length() > MAX_TEXT) {
                problems.add(path + ": a string with {{field}} placeholders, at most " + MAX_TEXT + " characters");
                continue;
            }
            Matcher placeholder = Placeholders.PATTERN.matcher(value.asText());
            while (placeholder.find()) {
                if (!fieldNames.contains(placeholder.group(1))) {
                    problems.add(path + ": {{" + placeholder.group(1) + "}} is not a declared field");
                }
            }
        }
    }

    private static void colors(JsonNode colors, String at, MotionFacts facts, List<String> problems) {
        for (Map.Entry<String, JsonNode> entry : entries(colors, at, "colours by colour slot id", problems)) {
            String path = at + "." + entry.getKey();
            if (facts != null && !facts.takesColor(entry.getKey())) {
                problems.add(path + ": the motion has no colour slot of that id (" + list(slotsOf(facts, "color"))
                        + ")");
            }
            if (!entry.getValue().isTextual() || !TemplateValidator.COLOR.matcher(entry.getValue().asText())
                    .matches()) {
                problems.add(path + ": a colour #rrggbb or #rrggbbaa, like #1d3557");
            }
        }
    }

    private static void images(JsonNode images, String at, MotionFacts facts, TemplateDefinition template,
            List<String> problems) {
        for (Map.Entry<String, JsonNode> entry : entries(images, at, "image slot indexes by image asset id",
                problems)) {
            String path = at + "." + entry.getKey();
            if (facts != null && !facts.takesImage(entry.getKey())) {
                problems.add(path + ": the motion has no image asset of that id (" + list(facts.imageAssets())
                        + ")");
            }
            JsonNode value = entry.getValue();
            int slots = template.assetsOrEmpty().of(AssetKind.IMAGE).size();
            if (!value.isIntegralNumber() || value.asInt() < 0 || value.asInt() >= slots) {
                problems.add(path + ": the index of a slot of assets.images (there "
                        + (slots == 1 ? "is 1" : "are " + slots) + ")");
            }
        }
    }

    private static List<Map.Entry<String, JsonNode>> entries(JsonNode node, String at, String what,
            List<String> problems) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        if (node == null || node.isNull()) {
            return entries;
        }
        if (!node.isObject()) {
            problems.add(at + ": an object of " + what);
            return entries;
        }
        if (node.size() > MAX_FILLED) {
            problems.add(at + ": at most " + MAX_FILLED);
            return entries;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        fields.forEachRemaining(entries::add);
        return entries;
    }

    private static List<String> slotsOf(MotionFacts facts, String kind) {
        return facts.slots().entrySet().stream().filter(e -> kind.equals(e.getValue())).map(Map.Entry::getKey)
                .sorted().toList();
    }

    private static List<String> join(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String list(List<String> names) {
        return names.isEmpty() ? "it has none" : "it has: " + String.join(", ", names);
    }
}
