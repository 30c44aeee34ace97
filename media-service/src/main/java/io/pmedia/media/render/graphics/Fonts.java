package io.pmedia.media.render.graphics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.pmedia.media.render.RenderException;
import io.pmedia.media.template.TextFont;

/**
 * The font files behind the template's font names, for the graphics engine to draw with (before its Noto fallback
 * chain): the built-in names in one directory (the OS package {@code fonts-dejavu-core}), any other name from the
 * fonts an operator registered ({@code POST /admin/fonts}), through {@link CustomFonts}. Thread-safe.
 */
public final class Fonts {

    public static final Path DEFAULT_DIRECTORY = Path.of("/usr/share/fonts/truetype/dejavu");

    /** Where registered fonts come from: a local file per name, or empty for a name nobody registered. */
    @FunctionalInterface
    public interface CustomFonts {
        Optional<Path> file(String name);

        CustomFonts NONE = name -> Optional.empty();
    }

    private final Path directory;
    private final CustomFonts custom;

    /** Only the built-in fonts. Fails clearly when the directory lacks one. */
    public Fonts(Path directory) {
        this(directory, CustomFonts.NONE);
    }

    /** Fails clearly when the directory lacks a built-in font. */
    public Fonts(Path directory, CustomFonts custom) {
        this.directory = directory.toAbsolutePath();
        this.custom = custom;
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

    /**
     * The file of a font by the name a template uses.
     *
     * @throws RenderException when no font has that name
     */
    public Path file(String name) {
        TextFont builtIn = TextFont.named(name);
        if (builtIn != null) {
            return file(builtIn);
        }
        return custom.file(name).orElseThrow(() -> new RenderException("font '" + name + "' is not registered"));
    }
}
