package io.pmedia.graphics.lottie;

import java.lang.Character.UnicodeScript;
import java.util.Locale;
import java.util.Set;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.FontMgr;
import org.jetbrains.skia.FontSlant;
import org.jetbrains.skia.FontStyle;
import org.jetbrains.skia.Typeface;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.graphics.text.FontChain;
import io.pmedia.graphics.text.PointText;

/**
 * A point text layer whose text Skottie would not draw right, shaped by the engine's own text stack
 * ({@link PointText}: HarfBuzz, the bidi algorithm, the Noto fallback chain) in the document's font family, weight,
 * size, line height, tracking, colour and justification. A text is placed when one of its characters is in a script
 * that needs shaping (anything but Latin, Greek, Cyrillic and the common marks) or is missing from the document's
 * font; the layer must have one document (no keyframed text), no text animators and no text path, and be point text
 * (a box text, {@code sz}, is left to Skottie). The rest stays with Skottie, which then draws what its font has.
 */
final class PlacedText extends Placed {

    private static final Set<UnicodeScript> UNSHAPED = Set.of(UnicodeScript.LATIN, UnicodeScript.COMMON,
            UnicodeScript.INHERITED, UnicodeScript.GREEK, UnicodeScript.CYRILLIC);

    private final PointText text;

    private PlacedText(int index, JsonNode layer, PointText text) {
        super(index, layer);
        this.text = text;
    }

    /**
     * Why a text layer of the main composition cannot be shaped by the engine, whatever its text, or null when it
     * can (the layer must also stand on its own, {@link Placed#unplaceable}).
     */
    static String unshapeable(JsonNode layer) {
        String placeable = unplaceable(layer);
        if (placeable != null) {
            return placeable;
        }
        JsonNode t = layer.path("t");
        if (t.path("d").path("k").size() != 1) {
            return "its text is keyframed";
        }
        if (t.path("a").size() > 0) {
            return "it has text animators";
        }
        if (t.path("p").has("m")) {
            return "it follows a path";
        }
        if (t.path("d").path("k").path(0).path("s").has("sz")) {
            return "it is box text";
        }
        return null;
    }

    /** The layer placed, or null when Skottie draws it. */
    static PlacedText of(int index, JsonNode layer, JsonNode root, FontChain fonts) {
        if (unshapeable(layer) != null) {
            return null;
        }
        JsonNode document = layer.path("t").path("d").path("k").path(0).path("s");
        JsonNode font = font(root, document.path("f").asText());
        String family = font == null ? null : font.path("fFamily").asText();
        FontStyle style = style(font == null ? "" : font.path("fStyle").asText());
        String string = document.path("t").asText("");
        if (document.path("ca").asInt() == 1) {
            string = string.toUpperCase(Locale.ROOT);
        }
        if (!needsShaping(string, family, style, root)) {
            return null;
        }
        double size = document.path("s").asDouble(10);
        JsonNode fill = document.path("fc");
        int colour = fill.isArray() ? argb(fill) : 0xff000000;
        PointText.Align align = switch (document.path("j").asInt()) {
            case 1 -> PointText.Align.RIGHT;
            case 2 -> PointText.Align.CENTER;
            default -> PointText.Align.LEFT;
        };
        return new PlacedText(index, layer, PointText.lay(string, family, style, size, document.path("lh")
                .asDouble(size * 1.2), document.path("tr").asDouble() / 1000 * size, colour, align, fonts));
    }

    private static boolean needsShaping(String text, String family, FontStyle style, JsonNode root) {
        boolean embedded = false;
        for (JsonNode glyph : root.path("chars")) {
            embedded |= glyph.path("fFamily").asText().equals(family);
        }
        if (embedded) {
            return false; // the file's glyphs cover it (personalize dropped them where they did not)
        }
        Typeface typeface = family == null ? null : FontMgr.Companion.getDefault().matchFamilyStyle(family, style);
        return text.codePoints().anyMatch(c -> !Character.isWhitespace(c) && (!UNSHAPED.contains(UnicodeScript.of(c))
                || typeface == null && c > 0x7f || typeface != null && typeface.getUTF32Glyph(c) == 0));
    }

    private static JsonNode font(JsonNode root, String name) {
        for (JsonNode font : root.path("fonts").path("list")) {
            if (font.path("fName").asText().equals(name)) {
                return font;
            }
        }
        return null;
    }

    /** After Effects' style names ("Bold", "SemiBold Italic") as a weight and slant. */
    static FontStyle style(String name) {
        String n = name.toLowerCase(Locale.ROOT).replace(" ", "").replace("-", "");
        int weight = n.contains("thin")
                ? 100
                : n.contains("extralight") || n.contains("ultralight")
                        ? 200
                        : n.contains("light")
                                ? 300
                                : n.contains("medium")
                                        ? 500
                                        : n.contains("semibold") || n.contains("demibold")
                                                ? 600
                                                : n.contains("extrabold") || n.contains("ultrabold")
                                                        ? 800
                                                        : n.contains("black") || n.contains("heavy")
                                                                ? 900
                                                                : n.contains("bold") ? 700 : 400;
        FontSlant slant = n.contains("italic")
                ? FontSlant.ITALIC
                : n.contains("oblique") ? FontSlant.OBLIQUE : FontSlant.UPRIGHT;
        return new FontStyle(weight, 5, slant);
    }

    private static int argb(JsonNode rgb) {
        int argb = 0xff;
        for (int i = 0; i < 3; i++) {
            argb = argb << 8 | (int) Math.round(Math.max(0, Math.min(1, rgb.path(i).asDouble())) * 255);
        }
        return argb;
    }

    int unresolvedGlyphs() {
        return text.unresolvedGlyphs();
    }

    @Override
    void draw(Canvas canvas) {
        text.paint(canvas);
    }

    @Override
    public void close() {
        text.close();
    }
}
