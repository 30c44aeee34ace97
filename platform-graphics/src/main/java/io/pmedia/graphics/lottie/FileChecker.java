package io.pmedia.graphics.lottie;

import static io.pmedia.graphics.lottie.LottieFile.step;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One pass over a parsed file: the limits of {@link LottieFile}, the references between layers and assets, every
 * number finite and numbers where a property needs them, and what the engine will not draw as warnings.
 */
final class FileChecker {

    /** The layer types Skottie draws: precomp, solid, image, null, shape, text. */
    private static final Set<Integer> DRAWN_LAYERS = Set.of(0, 1, 2, 3, 4, 5);
    /** Audio and camera layers draw nothing in either player: no warning. */
    private static final Set<Integer> SILENT_LAYERS = Set.of(6, 13);
    private static final Set<String> SHAPES = Set.of("gr", "sh", "rc", "el", "sr", "fl", "st", "gf", "gs", "tr",
            "tm", "rd", "rp", "mm", "op", "pb", "zz", "tw", "no");
    /**
     * Effect types both Skottie and lottie-web's SVG renderer draw (tint 20, fill 21, tritone 23, levels 24, drop
     * shadow 25, gaussian blur 29), and the expression controls (0 to 7, 10), which hold values and draw nothing.
     */
    private static final Set<Integer> DRAWN_EFFECTS = Set.of(0, 1, 2, 3, 4, 5, 6, 7, 10, 20, 21, 23, 24, 25, 29);
    private static final Pattern DATA_IMAGE = Pattern.compile("data:image/(png|jpeg|jpg|webp|gif)(;base64)?,.*",
            Pattern.DOTALL);
    /** A scheme ({@code http:}, {@code file:}), a host ({@code //}), a root or a way up: not a plain file name. */
    private static final Pattern EXTERNAL = Pattern.compile("(?i)^[a-z][a-z0-9+.-]*:.*|^[/\\\\].*|.*\\.\\..*",
            Pattern.DOTALL);

    private final ObjectNode root;
    private final List<String> warnings = new ArrayList<>();
    private int warningCount;
    private final List<String> textLayers = new ArrayList<>();
    private final Map<String, String> slots = new LinkedHashMap<>();
    private final List<String> imageAssets = new ArrayList<>();
    private final Map<String, JsonNode> precomps = new HashMap<>();
    private final Map<String, String> precompPointers = new HashMap<>();
    /** Per precomp id: the layers one instance of it brings (itself included), and how deep it nests. */
    private final Map<String, long[]> sizes = new HashMap<>();
    private final Set<String> open = new HashSet<>();

    FileChecker(ObjectNode root) {
        this.root = root;
    }

    LottieCheck check() {
        int width = (int) JsonFields.number(root, "w", "", 1, LottieFile.MAX_SIDE, true);
        int height = (int) JsonFields.number(root, "h", "", 1, LottieFile.MAX_SIDE, true);
        double frameRate = JsonFields.number(root, "fr", "", Double.MIN_VALUE, 1000, false);
        double in = JsonFields.number(root, "ip", "", -1e7, 1e7, false);
        double out = JsonFields.number(root, "op", "", -1e7, 1e7, false);
        if (!(out > in)) {
            throw new LottieException("/op", "the out point (" + out + ") must be after the in point (" + in + ")");
        }
        if ((out - in) / frameRate > LottieFile.MAX_SECONDS) {
            throw new LottieException("/op", "the animation lasts " + (out - in) / frameRate + " s; at most "
                    + LottieFile.MAX_SECONDS);
        }
        JsonNode layers = JsonFields.array(root, "layers", "", true);
        JsonNode assets = JsonFields.array(root, "assets", "", false);
        for (int j = 0; assets != null && j < assets.size(); j++) {
            asset(assets.get(j), "/assets/" + j);
        }
        long instantiated = count(layers, "/layers", 0)[0];
        if (instantiated > LottieFile.MAX_LAYERS) {
            throw new LottieException("/layers", "more than " + LottieFile.MAX_LAYERS
                    + " layers counted over the compositions and each precomp instance");
        }
        layers(layers, "/layers");
        for (Map.Entry<String, String> precomp : precompPointers.entrySet()) {
            layers(precomps.get(precomp.getKey()), precomp.getValue() + "/layers");
        }
        JsonNode chars = JsonFields.array(root, "chars", "", false);
        for (int i = 0; chars != null && i < chars.size(); i++) {
            values(chars.get(i), "/chars/" + i, false);
        }
        declaredSlots();
        values(root.get("markers"), "/markers", false);
        if (warningCount > LottieFile.MAX_WARNINGS) {
            warnings.add("and " + (warningCount - LottieFile.MAX_WARNINGS) + " more warnings");
        }
        return new LottieCheck(width, height, frameRate, in, out, warnings, textLayers, slots, imageAssets);
    }

    private void asset(JsonNode asset, String pointer) {
        if (!asset.isObject()) {
            throw new LottieException(pointer, "an asset is an object");
        }
        String id = JsonFields.text(asset, "id", pointer, true);
        if (asset.has("layers")) {
            JsonFields.array(asset, "layers", pointer, true);
            if (precomps.put(id, asset.get("layers")) != null) {
                throw new LottieException(pointer + "/id", "two precomps with the id '" + id + "'");
            }
            precompPointers.put(id, pointer);
            return;
        }
        if (!asset.has("p")) {
            return; // a data source or an empty asset: nothing to load
        }
        String file = JsonFields.text(asset, "p", pointer, true);
        String folder = asset.has("u") ? JsonFields.text(asset, "u", pointer, false) : "";
        imageAssets.add(id);
        if (asset.has("sid")) {
            slots.put(JsonFields.text(asset, "sid", pointer, true), "image");
        }
        if (file.startsWith("data:")) {
            if (!DATA_IMAGE.matcher(file).matches()) {
                throw new LottieException(pointer + "/p", "an embedded image is a data:image/png, jpeg, webp or"
                        + " gif URI");
            }
            EmbeddedImages.bytes(file).ifPresent(bytes -> EmbeddedImages.checkSize(bytes, pointer + "/p",
                    "the embedded image of asset '" + id + "'"));
        } else if (EXTERNAL.matcher(folder + file).matches() || (folder + file).contains("//")) {
            throw new LottieException(pointer + "/p", "'" + JsonFields.abbreviate(folder + file)
                    + "' is outside the file:"
                    + " the engine fetches nothing; embed the image as a data URI, or give it a plain file name for"
                    + " the template to fill");
        } else {
            warn(pointer + "/p",
                    "the image '" + JsonFields.abbreviate(file) + "' is not embedded: it is drawn only when the"
                            + " template gives asset '" + id + "' an image");
        }
        JsonFields.number(asset, "w", pointer, 0, LottieFile.MAX_SIDE * 4, false);
        JsonFields.number(asset, "h", pointer, 0, LottieFile.MAX_SIDE * 4, false);
    }

    /**
     * The layers one instance of a composition brings, how deep its precomps nest below it, and the shapes it
     * draws (each repeater's copies counted).
     */
    private long[] count(JsonNode layers, String pointer, int depth) {
        long total = 0;
        long deepest = 0;
        long drawn = 0;
        for (int i = 0; i < layers.size(); i++) {
            JsonNode layer = layers.get(i);
            total++;
            drawn = Math.min(drawn + drawnShapes(layer.path("shapes"), pointer + "/" + i + "/shapes"),
                    LottieFile.MAX_SHAPES + 1L);
            if (drawn > LottieFile.MAX_SHAPES) {
                throw new LottieException(pointer + "/" + i, "more than " + LottieFile.MAX_SHAPES
                        + " shapes counted over the compositions, each precomp instance and each repeater's copies");
            }
            if (!layer.isObject() || layer.path("ty").asInt(-1) != 0) {
                continue;
            }
            String at = pointer + "/" + i + "/refId";
            String ref = JsonFields.text(layer, "refId", pointer + "/" + i, true);
            if (!precomps.containsKey(ref)) {
                throw new LottieException(at, "no precomp asset has the id '" + JsonFields.abbreviate(ref) + "'");
            }
            if (open.contains(ref)) {
                throw new LottieException(at, "precomp '" + JsonFields.abbreviate(ref) + "' contains itself");
            }
            long[] size = sizes.get(ref);
            if (size == null) {
                if (depth + 1 > LottieFile.MAX_PRECOMP_DEPTH) {
                    throw new LottieException(at, "precomps nest more than " + LottieFile.MAX_PRECOMP_DEPTH
                            + " deep");
                }
                open.add(ref);
                size = count(precomps.get(ref), precompPointers.get(ref) + "/layers", depth + 1);
                open.remove(ref);
                sizes.put(ref, size);
            }
            if (depth + 1 + size[1] > LottieFile.MAX_PRECOMP_DEPTH) {
                throw new LottieException(at, "precomps nest more than " + LottieFile.MAX_PRECOMP_DEPTH + " deep");
            }
            total += size[0];
            deepest = Math.max(deepest, size[1] + 1);
            drawn = Math.min(drawn + size[2], LottieFile.MAX_SHAPES + 1L);
            if (total > LottieFile.MAX_LAYERS) {
                throw new LottieException(at, "more than " + LottieFile.MAX_LAYERS
                        + " layers counted over the compositions and each precomp instance");
            }
            if (drawn > LottieFile.MAX_SHAPES) {
                throw new LottieException(at, "more than " + LottieFile.MAX_SHAPES
                        + " shapes counted over the compositions, each precomp instance and each repeater's copies");
            }
        }
        return new long[]{total, deepest, drawn};
    }

    /**
     * The shapes a list draws: each item one, a group what its items draw, a repeater multiplying what comes
     * before it in its list by its copies (at most {@link LottieFile#MAX_COPIES}; a polystar has at most as many
     * points). Saturates past {@link LottieFile#MAX_SHAPES}.
     */
    private static long drawnShapes(JsonNode items, String pointer) {
        long drawn = 0;
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            String type = item.path("ty").asText();
            if (type.equals("gr")) {
                drawn += drawnShapes(item.path("it"), pointer + "/" + i + "/it");
            } else if (type.equals("rp")) {
                drawn *= largest(item.path("c"), pointer + "/" + i + "/c", LottieFile.MAX_COPIES, "copies");
            } else {
                drawn++;
            }
            if (type.equals("sr")) {
                largest(item.path("pt"), pointer + "/" + i + "/pt", LottieFile.MAX_COPIES, "points");
            }
            drawn = Math.min(drawn, LottieFile.MAX_SHAPES + 1L);
        }
        return drawn;
    }

    /** The largest number a property takes (its value or any keyframe's start or end), refused over {@code max}. */
    private static long largest(JsonNode property, String pointer, int max, String what) {
        JsonNode value = property.path("k");
        List<JsonNode> values = new ArrayList<>();
        if (value.path(0).isObject()) {
            value.forEach(key -> values.addAll(List.of(key.path("s"), key.path("e"))));
        } else {
            values.add(value);
        }
        double largest = 0;
        for (JsonNode v : values) {
            for (JsonNode number : v.isArray() ? v : List.of(v)) {
                largest = Math.max(largest, number.asDouble(0));
            }
        }
        if (largest > max) {
            throw new LottieException(pointer, largest + " " + what + "; at most " + max);
        }
        return (long) Math.ceil(largest);
    }

    private void layers(JsonNode layers, String pointer) {
        for (int i = 0; i < layers.size(); i++) {
            layer(layers.get(i), pointer + "/" + i);
        }
    }

    private void layer(JsonNode layer, String pointer) {
        if (!layer.isObject()) {
            throw new LottieException(pointer, "a layer is an object");
        }
        int type = (int) JsonFields.number(layer, "ty", pointer, 0, 1000, true);
        for (String time : List.of("ip", "op", "st", "sr")) {
            JsonFields.number(layer, time, pointer, -1e7, 1e7, false);
        }
        if (!DRAWN_LAYERS.contains(type) && !SILENT_LAYERS.contains(type)) {
            warn(pointer + "/ty", "layer type " + type + " is not drawn");
        }
        if (layer.path("ddd").asInt() == 1) {
            warn(pointer + "/ddd", "a 3D layer is drawn flat (no camera, no depth)");
        }
        JsonNode effects = layer.get("ef");
        for (int e = 0; effects != null && effects.isArray() && e < effects.size(); e++) {
            JsonNode effect = effects.get(e);
            if (!DRAWN_EFFECTS.contains(effect.path("ty").asInt(-1)) && effect.path("en").asInt(1) != 0) {
                warn(pointer + "/ef/" + e, "the effect '" + JsonFields.abbreviate(effect.path("nm").asText("?"))
                        + "' (type " + effect.path("ty").asText("?") + ") is not drawn");
            }
        }
        if (layer.path("sy").isArray() && !layer.path("sy").isEmpty()) {
            warn(pointer + "/sy", "layer styles are drawn in part at most (shadows only; lottie-web draws none)");
        }
        if (type == 2) {
            imageLayer(layer, pointer);
        }
        if (type == 4) {
            shapes(JsonFields.array(layer, "shapes", pointer, true), pointer + "/shapes");
        }
        if (type == 5) {
            textLayer(layer, pointer);
        }
        for (Map.Entry<String, JsonNode> field : layer.properties()) {
            if (type == 5 && field.getKey().equals("t")) {
                values(field.getValue().get("a"), pointer + "/t/a", false);
                values(field.getValue().get("p"), pointer + "/t/p", false);
                values(field.getValue().get("m"), pointer + "/t/m", false);
            } else if (!field.getKey().equals("shapes")) {
                values(field.getValue(), pointer + step(field.getKey()), false);
            }
        }
    }

    private void imageLayer(JsonNode layer, String pointer) {
        if (!imageAssets.contains(layer.path("refId").asText(null))) {
            throw new LottieException(pointer + "/refId", "no image asset has the id '"
                    + JsonFields.abbreviate(layer.path("refId").asText("")) + "'");
        }
        String why = pointer.startsWith("/assets") ? "it is inside a precomp" : Placed.unplaceable(layer);
        if (why != null) {
            warn(pointer, "the image layer is not drawn: " + why + " (the engine draws the image layers of the"
                    + " main composition that stand on their own)");
        }
    }

    private void shapes(JsonNode shapes, String pointer) {
        for (int i = 0; i < shapes.size(); i++) {
            JsonNode shape = shapes.get(i);
            String at = pointer + "/" + i;
            if (!shape.isObject()) {
                throw new LottieException(at, "a shape is an object");
            }
            String type = JsonFields.text(shape, "ty", at, true);
            if (!SHAPES.contains(type)) {
                warn(at + "/ty", "shape type '" + JsonFields.abbreviate(type) + "' is not drawn");
            }
            for (Map.Entry<String, JsonNode> field : shape.properties()) {
                if (type.equals("gr") && field.getKey().equals("it")) {
                    shapes(JsonFields.array(shape, "it", at, true), at + "/it");
                } else {
                    values(field.getValue(), at + step(field.getKey()), false);
                }
            }
        }
    }

    private void textLayer(JsonNode layer, String pointer) {
        if (layer.hasNonNull("nm")) {
            textLayers.add(JsonFields.text(layer, "nm", pointer, true));
        }
        JsonNode document = layer.path("t").path("d");
        String at = pointer + "/t/d";
        if (!document.isObject()) {
            throw new LottieException(at, "a text layer has a text document (t.d)");
        }
        if (document.has("sid")) {
            slots.put(JsonFields.text(document, "sid", at, true), "text");
        }
        textDocument(document, at);
        String why = pointer.startsWith("/assets") ? "it is inside a precomp" : PlacedText.unshapeable(layer);
        if (why != null) {
            warn(pointer, "text layer '" + JsonFields.abbreviate(layer.path("nm").asText(""))
                    + "' is drawn by Skottie, which"
                    + " shapes no complex script and has no font fallback here: a text in a script its font lacks"
                    + " shows as boxes (" + why + ")");
        }
    }

    /** A text document: its keyframes, each with a document whose text is a string and whose sizes are numbers. */
    private void textDocument(JsonNode document, String at) {
        JsonNode keys = document.get("k");
        if (keys == null && document.has("sid")) {
            return; // the slot gives the document
        }
        if (keys == null || !keys.isArray()) {
            throw new LottieException(at + "/k", "a text document's keyframes are an array");
        }
        if (document.path("x").isTextual()) {
            warn(at + "/x", "an expression is not drawn (the text keeps its keyframed value)");
        }
        for (int k = 0; k < keys.size(); k++) {
            JsonNode key = keys.get(k);
            String keyAt = at + "/k/" + k;
            JsonFields.number(key, "t", keyAt, -1e7, 1e7, false);
            JsonNode style = key.path("s");
            if (!style.isObject()) {
                throw new LottieException(keyAt + "/s", "a text keyframe has a document (s)");
            }
            if (style.has("t")) {
                JsonFields.text(style, "t", keyAt + "/s", true);
            }
            for (String size : List.of("s", "lh", "ls", "j", "tr")) {
                JsonFields.number(style, size, keyAt + "/s", -1e6, 1e6, false);
            }
            values(style.get("fc"), keyAt + "/s/fc", true);
            values(style.get("sc"), keyAt + "/s/sc", true);
        }
    }

    /**
     * Every number in {@code node} finite; inside a property's value ({@code k}, {@code s}, {@code e}) numbers
     * where numbers are needed (a string there is an error: only names and expressions are text); a property's
     * expression ({@code x}) and slot ({@code sid}) noted.
     */
    private void values(JsonNode node, String pointer, boolean numeric) {
        if (node == null) {
            return;
        }
        if (node.isNumber()) {
            if (!Double.isFinite(node.asDouble())) {
                throw new LottieException(pointer, "a number out of range");
            }
        } else if (node.isTextual() && numeric) {
            throw new LottieException(pointer, "a string where a number is needed");
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                values(node.get(i), pointer + "/" + i, numeric);
            }
        } else if (node.isObject()) {
            boolean property = node.has("k") && !numeric;
            if (property && node.path("x").isTextual()) {
                warn(pointer + "/x", "an expression is not drawn (the property keeps its keyframed value)");
            }
            if (property || node.has("sid")) {
                propertySlot(node, pointer);
            }
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String key = field.getKey();
                boolean value = property && key.equals("k") || numeric && !NAMES.contains(key);
                values(field.getValue(), pointer + step(key), value);
            }
        }
    }

    /** Keys whose values are text even inside a property's value. */
    private static final Set<String> NAMES = Set.of("n", "nm", "mn", "x", "sid", "ix");

    private void propertySlot(JsonNode property, String pointer) {
        if (!property.path("sid").isTextual()) {
            return;
        }
        String sid = property.get("sid").asText();
        String kind = pointer.endsWith("/c") || pointer.endsWith("/sc") || pointer.endsWith("/fc")
                ? "color"
                : property.path("k").isArray() || slotValue(sid).isArray() ? "vector" : "scalar";
        slots.putIfAbsent(sid, kind);
    }

    private JsonNode slotValue(String sid) {
        return root.path("slots").path(sid).path("p").path("k");
    }

    /** Slots declared at the top and used by no property: their kind from their value. */
    private void declaredSlots() {
        JsonNode declared = root.get("slots");
        if (declared == null) {
            return;
        }
        if (!declared.isObject()) {
            throw new LottieException("/slots", "slots are an object by slot id");
        }
        for (Map.Entry<String, JsonNode> slot : declared.properties()) {
            String at = "/slots" + step(slot.getKey());
            JsonNode value = slot.getValue().path("p");
            if (!value.isObject()) {
                throw new LottieException(at + "/p", "a slot's value (p) is an object");
            }
            String kind = slots.get(slot.getKey());
            if (kind == null) {
                kind = value.has("p") && value.has("w")
                        ? "image"
                        : value.path("k").path(0).path("s").path("t").isTextual()
                                ? "text"
                                : value.path("k").isArray() ? "vector" : "scalar";
                slots.put(slot.getKey(), kind);
            }
            switch (kind) {
                case "text" -> textDocument(value, at + "/p");
                case "image" -> {
                    imageAssets.remove(slot.getKey());
                    asset(((ObjectNode) value.deepCopy()).put("id", slot.getKey()), at + "/p");
                    imageAssets.remove(slot.getKey());
                }
                default -> values(value, at + "/p", false);
            }
        }
    }

    private void warn(String pointer, String message) {
        warningCount++;
        if (warningCount <= LottieFile.MAX_WARNINGS) {
            warnings.add(pointer + ": " + message);
        }
    }
}
