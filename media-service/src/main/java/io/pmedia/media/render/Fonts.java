package io.pmedia.media.render;

import java.awt.Font;
import java.awt.FontFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.pmedia.media.template.TextFont;

/**
 * The font files behind the template's font names, in one directory (the OS package {@code fonts-dejavu-core}),
 * for FFmpeg to draw with and for {@link TextLayout} to measure with. Thread-safe.
 */
public final class Fonts {

    public static final Path DEFAULT_DIRECTORY = Path.of("/usr/share/fonts/truetype/dejavu");

    private final Path directory;
    private final Map<TextFont, Font> loaded = new ConcurrentHashMap<>();

    /** Fails clearly when the directory lacks a font a template may name. */
    public Fonts(Path directory) {
        this.directory = directory.toAbsolutePath();
        for (TextFont font : TextFont.values()) {
            if (!Files.isRegularFile(file(font))) {
                throw new RenderException("font " + font.fileName() + " not found in " + directory
                        + ": install the OS package fonts-dejavu-core");
            }
        }
    }

    public Path file(TextFont font) {
        return directory.resolve(font.fileName());
    }

    /** The font at 1 pixel, for measuring (derive the size needed). */
    Font awt(TextFont font) {
        return loaded.computeIfAbsent(font, f -> {
            try {
                return Font.createFont(Font.TRUETYPE_FONT, file(f).toFile());
            } catch (FontFormatException | IOException e) {
                throw new RenderException("font " + f.fileName() + " cannot be read: " + e.getMessage(), e);
            }
        });
    }
}
