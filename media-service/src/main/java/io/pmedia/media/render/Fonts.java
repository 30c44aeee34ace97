package io.pmedia.media.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The fonts a template may name. Only these names reach FFmpeg, mapped to files of the OS package
 * {@code fonts-dejavu-core}: a template (let alone a vendor) never gives a path.
 */
public final class Fonts {

    public static final String DEFAULT = "sans";
    static final String DIRECTORY = "/usr/share/fonts/truetype/dejavu";

    private static final Map<String, String> FILES = Map.of(
            "sans", "DejaVuSans.ttf",
            "sans-bold", "DejaVuSans-Bold.ttf",
            "serif", "DejaVuSerif.ttf",
            "serif-bold", "DejaVuSerif-Bold.ttf",
            "mono", "DejaVuSansMono.ttf",
            "mono-bold", "DejaVuSansMono-Bold.ttf");

    private Fonts() {
    }

    public static boolean isKnown(String name) {
        return FILES.containsKey(name);
    }

    public static List<String> names() {
        return FILES.keySet().stream().sorted().toList();
    }

    /** The font file for a known name (the default for null). */
    public static Path file(String name, Path directory) {
        String file = FILES.get(name == null ? DEFAULT : name);
        if (file == null) {
            throw new IllegalArgumentException("unknown font " + name);
        }
        return directory.resolve(file);
    }

    /** Fails clearly when the font package is missing. */
    public static void check(Path directory) {
        if (!Files.isRegularFile(file(DEFAULT, directory))) {
            throw new RenderException("fonts not found in " + directory + ": install the OS package fonts-dejavu-core");
        }
    }
}
