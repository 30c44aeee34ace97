package io.pmedia.graphics.lottie;

import static io.pmedia.graphics.lottie.LottieFile.step;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes a template's values into a checked file and resolves its slots, so that the player (Skottie, which in
 * Skiko 0.150.2 takes no slot values) sees a plain file: each property or asset that names a slot ({@code sid})
 * takes the replacement given for that slot, else the slot's own value ({@code slots[sid].p}, as lottie-web
 * assigns it), and loses its {@code sid}.
 */
final class Personalizer {

    private static final Pattern COLOUR = Pattern.compile("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?");

    private final ObjectNode root;
    private final Set<String> used = new HashSet<>();
    /** Text documents whose text was replaced: the embedded glyphs of their font may not cover it. */
    private final List<JsonNode> replaced = new ArrayList<>();

    Personalizer(ObjectNode root) {
        this.root = root;
    }

    void apply(Map<String, String> texts, Map<String, String> colors, Map<String, byte[]> images) {
        for (Map.Entry<String, String> text : texts.entrySet()) {
            if (text.getValue().length() > LottieFile.MAX_TEXT) {
                throw new LottieException("", "the text for '" + JsonFields.abbreviate(text.getKey()) + "' is "
                        + text.getValue().length() + " characters; at most " + LottieFile.MAX_TEXT);
            }
        }
        for (Map.Entry<String, String> colour : colors.entrySet()) {
            if (!COLOUR.matcher(colour.getValue()).matches()) {
                throw new LottieException("/slots" + step(colour.getKey()), "'"
                        + JsonFields.abbreviate(colour.getValue()) + "' is not a colour (#rrggbb or #rrggbbaa)");
            }
        }
        JsonNode slots = root.path("slots");
        walk(root, "", slots, texts, colors, images);
        for (JsonNode layers : compositions()) {
            for (JsonNode layer : layers) {
                if (layer.path("ty").asInt(-1) == 5 && layer.path("nm").isTextual()
                        && texts.containsKey(layer.path("nm").asText())) {
                    used.add(layer.path("nm").asText());
                    replaceText(layer.path("t").path("d"), texts.get(layer.path("nm").asText()));
                }
            }
        }
        JsonNode assets = root.path("assets");
        for (int i = 0; i < assets.size(); i++) {
            JsonNode asset = assets.get(i);
            String id = asset.path("id").asText(null);
            if (id != null && images.containsKey(id) && asset.has("p") && !asset.has("layers")) {
                used.add(id);
                embed((ObjectNode) asset, images.get(id), "/assets/" + i);
            } else if (asset.path("p").asText().startsWith("data:")) {
                // a file registered before its pictures were bounded: refused here, before a frame is drawn
                int at = i;
                EmbeddedImages.bytes(asset.path("p").asText()).ifPresent(bytes -> EmbeddedImages.checkSize(bytes,
                        "/assets/" + at + "/p", "the embedded image of asset '" + id + "'"));
            }
        }
        root.remove("slots");
        for (String key : List.of(texts.keySet(), colors.keySet(), images.keySet()).stream()
                .flatMap(Set::stream).toList()) {
            if (!used.contains(key)) {
                throw new LottieException("", "no text layer, slot or image asset is named '"
                        + JsonFields.abbreviate(key) + "'");
            }
        }
        uncoveredGlyphs();
    }

    private List<JsonNode> compositions() {
        List<JsonNode> compositions = new ArrayList<>();
        compositions.add(root.path("layers"));
        for (JsonNode asset : root.path("assets")) {
            if (asset.has("layers")) {
                compositions.add(asset.get("layers"));
            }
        }
        return compositions;
    }

    /** Every object that names a slot, resolved; the walk does not enter the slots themselves. */
    private void walk(JsonNode node, String pointer, JsonNode slots, Map<String, String> texts,
            Map<String, String> colors, Map<String, byte[]> images) {
        if (node instanceof ObjectNode object) {
            if (object.path("sid").isTextual()) {
                resolve(object, pointer, slots, texts, colors, images);
            }
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                if (!(pointer.isEmpty() && field.getKey().equals("slots"))) {
                    walk(field.getValue(), pointer + step(field.getKey()), slots, texts, colors, images);
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                walk(array.get(i), pointer + "/" + i, slots, texts, colors, images);
            }
        }
    }

    private void resolve(ObjectNode object, String pointer, JsonNode slots, Map<String, String> texts,
            Map<String, String> colors, Map<String, byte[]> images) {
        String sid = object.remove("sid").asText();
        JsonNode value = slots.path(sid).path("p");
        if (value.isObject()) {
            object.setAll((ObjectNode) value.deepCopy());
        }
        if (colors.containsKey(sid)) {
            used.add(sid);
            object.removeAll();
            object.put("a", 0);
            object.set("k", colour(colors.get(sid)));
        }
        if (texts.containsKey(sid)) {
            used.add(sid);
            replaceText(object, texts.get(sid));
        }
        if (images.containsKey(sid) && object.has("p")) {
            used.add(sid);
            embed(object, images.get(sid), pointer);
        }
    }

    /** The text of every keyframe of a text document, in After Effects' line breaks (a carriage return). */
    private void replaceText(JsonNode document, String text) {
        String lines = text.replace("\r\n", "\r").replace('\n', '\r');
        for (JsonNode key : document.path("k")) {
            if (key.path("s") instanceof ObjectNode style) {
                style.put("t", lines);
                replaced.add(style);
            }
        }
    }

    private static ArrayNode colour(String hex) {
        ArrayNode rgba = LottieFile.JSON.createArrayNode();
        for (int i = 1; i < 9; i += 2) {
            rgba.add(i < hex.length() ? Integer.parseInt(hex.substring(i, i + 2), 16) / 255.0 : 1.0);
        }
        return rgba;
    }

    private static void embed(ObjectNode asset, byte[] image, String pointer) {
        String type = image.length > 8 && (image[0] & 0xff) == 0x89 && image[1] == 'P' && image[2] == 'N'
                ? "png"
                : image.length > 3 && (image[0] & 0xff) == 0xff && (image[1] & 0xff) == 0xd8 ? "jpeg" : null;
        if (type == null) {
            throw new LottieException(pointer, "the image for asset '" + asset.path("id").asText() + "' is not a"
                    + " PNG or JPEG");
        }
        if (image.length > LottieFile.MAX_IMAGE_BYTES) {
            throw new LottieException(pointer, "the image for asset '" + asset.path("id").asText() + "' is "
                    + image.length + " bytes; at most " + LottieFile.MAX_IMAGE_BYTES);
        }
        EmbeddedImages.checkSize(image, pointer, "the image for asset '" + asset.path("id").asText() + "'");
        asset.put("u", "");
        asset.put("p", "data:image/" + type + ";base64," + Base64.getEncoder().encodeToString(image));
        asset.put("e", 1);
    }

    /**
     * Embedded glyphs ({@code chars}) cover the letters the designer typed, not a viewer's name: when a replaced
     * text has a character its font's glyphs lack, that font's glyphs are dropped, and the text is shaped with the
     * font by name and the fallback chain behind it (a missing letter would otherwise be drawn as nothing).
     */
    private void uncoveredGlyphs() {
        JsonNode chars = root.get("chars");
        if (!(chars instanceof ArrayNode glyphs) || replaced.isEmpty()) {
            return;
        }
        for (JsonNode style : replaced) {
            JsonNode font = Fonts.named(root, style.path("f").asText(""));
            if (font == null) {
                continue;
            }
            Set<Integer> covered = new HashSet<>();
            for (JsonNode glyph : glyphs) {
                if (Fonts.glyphOf(glyph, font)) {
                    glyph.path("ch").asText("").codePoints().forEach(covered::add);
                }
            }
            boolean all = style.path("t").asText().codePoints().allMatch(c -> c == '\r' || covered.contains(c));
            if (!all) {
                for (Iterator<JsonNode> it = glyphs.iterator(); it.hasNext();) {
                    if (Fonts.glyphOf(it.next(), font)) {
                        it.remove();
                    }
                }
            }
        }
    }
}
