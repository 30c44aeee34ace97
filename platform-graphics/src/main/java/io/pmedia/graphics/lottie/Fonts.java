package io.pmedia.graphics.lottie;

import com.fasterxml.jackson.databind.JsonNode;

/** A Lottie file's fonts ({@code fonts.list}) and the embedded glyphs ({@code chars}) that draw them. */
final class Fonts {

    private Fonts() {
    }

    /** The font a text document names ({@code fName}), or null when the file lists none of that name. */
    static JsonNode named(JsonNode root, String name) {
        for (JsonNode font : root.path("fonts").path("list")) {
            if (font.path("fName").asText().equals(name)) {
                return font;
            }
        }
        return null;
    }

    /** True when an embedded glyph belongs to the font: the same family and style, as both players match them. */
    static boolean glyphOf(JsonNode glyph, JsonNode font) {
        return glyph.path("fFamily").asText().equals(font.path("fFamily").asText())
                && glyph.path("style").asText().equals(font.path("fStyle").asText());
    }
}
