package io.pmedia.media.template;

import java.util.Arrays;
import java.util.List;

/**
 * The fonts a template may name, and the file of the OS package {@code fonts-dejavu-core} each one is. Only these
 * names reach the render engine: neither an operator nor a vendor ever gives a font path.
 */
public enum TextFont {
    SANS("sans", "DejaVuSans.ttf"), SANS_BOLD("sans-bold", "DejaVuSans-Bold.ttf"), SANS_ITALIC("sans-italic",
            "DejaVuSans-Oblique.ttf"), SANS_BOLD_ITALIC("sans-bold-italic", "DejaVuSans-BoldOblique.ttf"), SANS_LIGHT(
                    "sans-light", "DejaVuSans-ExtraLight.ttf"), SANS_CONDENSED("sans-condensed",
                            "DejaVuSansCondensed.ttf"), SANS_CONDENSED_BOLD("sans-condensed-bold",
                                    "DejaVuSansCondensed-Bold.ttf"), SERIF("serif", "DejaVuSerif.ttf"), SERIF_BOLD(
                                            "serif-bold", "DejaVuSerif-Bold.ttf"), SERIF_ITALIC("serif-italic",
                                                    "DejaVuSerif-Italic.ttf"), MONO("mono",
                                                            "DejaVuSansMono.ttf"), MONO_BOLD("mono-bold",
                                                                    "DejaVuSansMono-Bold.ttf");

    public static final TextFont DEFAULT = SANS;

    private final String fontName;
    private final String fileName;

    TextFont(String fontName, String fileName) {
        this.fontName = fontName;
        this.fileName = fileName;
    }

    /** The name a template uses. */
    public String fontName() {
        return fontName;
    }

    /** The font's file name in the font directory. */
    public String fileName() {
        return fileName;
    }

    /** The font a template names; null when there is no such font. */
    public static TextFont named(String name) {
        for (TextFont font : values()) {
            if (font.fontName.equals(name)) {
                return font;
            }
        }
        return null;
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(TextFont::fontName).toList();
    }
}
