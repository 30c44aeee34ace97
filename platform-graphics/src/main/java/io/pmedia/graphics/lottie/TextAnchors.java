package io.pmedia.graphics.lottie;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A text layer's grouping alignment ({@code t.m.a}, "Anchor Point Grouping" in After Effects) moved into the glyphs,
 * for text drawn with the file's embedded glyphs ({@code chars}). The alignment sets the point each letter (word,
 * line) turns and scales about: lottie-web puts it {@code a[1]} percent of {@code 0.857 x size} above the baseline
 * ({@code TextAnimatorProperty}: {@code yOff = size x 1.2 x 0.714}), but Skottie measures it against the font's
 * ascent, and a typeface built from embedded glyphs has none: every letter then turns about its baseline, and a
 * text animator's scaling or turning letters land elsewhere.
 *
 * <p>
 * The vertical part is made zero and the same picture is kept: the layer draws a copy of the font whose glyphs sit
 * that distance lower, and its anchor point moves up by as much. Both players then turn each letter about the
 * point lottie-web turned it about, and the text at rest stays where it was. Left as they are: an animated
 * alignment, a layer whose font or size changes between its text keyframes, one that parents other layers, has
 * masks or runs on a path (the anchor's move would shift them), grouping "all", and fonts of composition glyphs.
 */
final class TextAnchors {

    /** lottie-web's vertical unit of the grouping alignment, per unit of font size. */
    static final double LOTTIE_WEB_ALIGNMENT_HEIGHT = 1.2 * 0.714;

    private final ObjectNode root;

    private TextAnchors(ObjectNode root) {
        this.root = root;
    }

    static void apply(ObjectNode root) {
        if (!(root.get("chars") instanceof ArrayNode)) {
            return;
        }
        TextAnchors anchors = new TextAnchors(root);
        anchors.layers(root.path("layers"));
        root.path("assets").forEach(asset -> anchors.layers(asset.path("layers")));
    }

    private void layers(JsonNode layers) {
        for (JsonNode layer : layers) {
            if (layer instanceof ObjectNode text && layer.path("ty").asInt() == 5 && movable(text, layers)) {
                move(text);
            }
        }
    }

    private boolean movable(ObjectNode layer, JsonNode siblings) {
        JsonNode options = layer.path("t").path("m");
        JsonNode alignment = options.path("a");
        if (options.path("g").asInt(1) == 4 || alignment.path("a").asInt(0) != 0
                || !alignment.path("k").path(1).isNumber() || alignment.path("k").path(1).asDouble() == 0) {
            return false;
        }
        if (!layer.path("masksProperties").isEmpty() || layer.path("t").path("p").has("m")) {
            return false;
        }
        for (JsonNode sibling : siblings) {
            if (layer.has("ind") && sibling.path("parent").equals(layer.get("ind"))) {
                return false;
            }
        }
        JsonNode documents = layer.path("t").path("d").path("k");
        if (!documents.isArray() || documents.isEmpty()) {
            return false;
        }
        JsonNode first = documents.get(0).path("s");
        for (JsonNode document : documents) {
            if (!document.path("s").path("f").equals(first.path("f"))
                    || !document.path("s").path("s").equals(first.path("s"))) {
                return false;
            }
        }
        JsonNode anchor = layer.path("ks").path("a");
        if (anchor.path("a").asInt(0) != 0 && anchor.path("k").path(0).path("s").path(1).isMissingNode()) {
            return false;
        }
        JsonNode font = Fonts.named(root, first.path("f").asText(""));
        return first.path("s").isNumber() && font != null && embeddedPaths(font);
    }

    /** True when the font has embedded glyphs and all of them are paths (no composition glyphs). */
    private boolean embeddedPaths(JsonNode font) {
        boolean any = false;
        for (JsonNode glyph : root.path("chars")) {
            if (Fonts.glyphOf(glyph, font)) {
                if (glyph.path("data").has("refId") || glyph.path("t").asInt(0) == 1) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    private void move(ObjectNode layer) {
        ArrayNode alignment = (ArrayNode) layer.path("t").path("m").path("a").path("k");
        double percent = alignment.get(1).asDouble();
        JsonNode documents = layer.path("t").path("d").path("k");
        double size = documents.get(0).path("s").path("s").asDouble();
        // the alignment point above the baseline, in glyph units (a glyph is drawn at size 100) and in the layer's
        double glyphShift = -percent / 100 * LOTTIE_WEB_ALIGNMENT_HEIGHT * 100;
        double layerShift = glyphShift * size / 100;
        String copy = copy(documents.get(0).path("s").path("f").asText(), glyphShift);
        for (JsonNode document : documents) {
            ((ObjectNode) document.path("s")).put("f", copy);
        }
        alignment.set(1, DoubleNode.valueOf(0));
        ObjectNode transform = layer.path("ks") instanceof ObjectNode ks ? ks : layer.putObject("ks");
        if (!(transform.get("a") instanceof ObjectNode anchor)) {
            ObjectNode anchor = transform.putObject("a");
            anchor.put("a", 0);
            anchor.putArray("k").add(0).add(layerShift).add(0);
            return;
        }
        if (anchor.path("a").asInt(0) == 0) {
            addToY(anchor.path("k"), layerShift);
        } else {
            for (JsonNode key : anchor.path("k")) {
                for (String end : List.of("s", "e")) {
                    addToY(key.path(end), layerShift);
                }
            }
        }
    }

    /** Adds {@code by} to the y of a point {@code [x, y(, z)]} (y grows downwards). */
    private static void addToY(JsonNode point, double by) {
        if (point instanceof ArrayNode xy && xy.size() >= 2 && xy.get(1).isNumber()) {
            xy.set(1, DoubleNode.valueOf(xy.get(1).asDouble() + by));
        }
    }

    /**
     * The name of a copy of the font whose glyphs are drawn {@code shift} glyph units lower; made once (a layer of the
     * same font and shift finds it in the file's fonts by its name).
     */
    private String copy(String name, double shift) {
        String tag = String.format(Locale.ROOT, " (anchor %.3f)", shift);
        if (Fonts.named(root, name + tag) != null) {
            return name + tag;
        }
        ObjectNode font = (ObjectNode) Fonts.named(root, name);
        ObjectNode twin = font.deepCopy();
        twin.put("fName", name + tag);
        twin.put("fFamily", font.path("fFamily").asText() + tag);
        ((ArrayNode) root.path("fonts").path("list")).add(twin);
        ArrayNode glyphs = (ArrayNode) root.get("chars");
        for (int i = 0, n = glyphs.size(); i < n; i++) {
            JsonNode glyph = glyphs.get(i);
            if (Fonts.glyphOf(glyph, font)) {
                ObjectNode lower = (ObjectNode) glyph.deepCopy();
                lower.put("fFamily", twin.path("fFamily").asText());
                lower(lower.path("data"), shift);
                glyphs.add(lower);
            }
        }
        return name + tag;
    }

    /** Moves every vertex of the glyph's paths {@code by} units down (y grows downwards). */
    private static void lower(JsonNode node, double by) {
        if (node instanceof ObjectNode object) {
            if (object.get("v") instanceof ArrayNode vertices && vertices.path(0).isArray()) {
                for (JsonNode vertex : vertices) {
                    addToY(vertex, by);
                }
            }
            object.forEach(child -> lower(child, by));
        } else if (node instanceof ArrayNode array) {
            array.forEach(child -> lower(child, by));
        }
    }
}
