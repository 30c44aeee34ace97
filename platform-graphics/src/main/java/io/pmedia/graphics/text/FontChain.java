package io.pmedia.graphics.text;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jetbrains.skia.FontMgr;
import org.jetbrains.skia.FontStyleSet;
import org.jetbrains.skia.Typeface;
import org.jetbrains.skia.paragraph.FontCollection;
import org.jetbrains.skia.paragraph.TypefaceFontProvider;

/**
 * The fonts text is shaped with: the template's fonts, registered by the names templates use, then a fallback
 * chain of Noto families (Debian's fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji) tried in order for each
 * character the font before lacks, then whatever fontconfig finds for it. Immutable once built; Skia's font
 * collection is not thread-safe, so a renderer thread builds its own (they are cheap: fonts are memory-mapped).
 */
public final class FontChain {

    /** The families tried after the template's font, in order. */
    public static final List<String> FALLBACK = List.of("Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew",
            "Noto Sans Devanagari", "Noto Sans Bengali", "Noto Sans Tamil", "Noto Sans Thai", "Noto Sans CJK SC",
            "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Color Emoji", "Noto Sans Symbols", "Noto Sans Symbols 2");

    private final FontCollection collection;
    private final List<String> fallback;

    private FontChain(FontCollection collection, List<String> fallback) {
        this.collection = collection;
        this.fallback = fallback;
    }

    /**
     * @param fonts font files by the family names the scene uses (e.g. {@code sans} to DejaVuSans.ttf)
     * @throws IllegalArgumentException when a file is missing or not a font
     */
    public static FontChain of(Map<String, Path> fonts) {
        return of(fonts, true);
    }

    /**
     * Without {@code fallback}, only the fonts given: what text looks like with no chain behind the template's font
     * (the tests' negative control, as FFmpeg's drawtext draws).
     */
    public static FontChain of(Map<String, Path> fonts, boolean fallback) {
        TypefaceFontProvider provider = new TypefaceFontProvider();
        for (Map.Entry<String, Path> font : fonts.entrySet()) {
            Path file = font.getValue();
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("font file " + file + " (" + font.getKey() + ") not found");
            }
            Typeface typeface = FontMgr.Companion.getDefault().makeFromFile(file.toString(), 0);
            if (typeface == null) {
                throw new IllegalArgumentException("font file " + file + " (" + font.getKey() + ") is not a font");
            }
            provider.registerTypeface(typeface, font.getKey());
        }
        if (fallback) {
            // the chain's families by name, with every style installed: found here, not asked of fontconfig again
            // by each new collection (most of the cost of laying a text out)
            Installed.TYPEFACES.forEach((family, typefaces) -> typefaces
                    .forEach(typeface -> provider.registerTypeface(typeface, family)));
        }
        FontCollection collection = new FontCollection();
        collection.setAssetFontManager(provider);
        if (fallback) {
            collection.setDefaultFontManager(FontMgr.Companion.getDefault());
        }
        collection.setEnableFallback(fallback);
        return new FontChain(collection, fallback ? Installed.FAMILIES : List.of());
    }

    /**
     * The fallback families installed on this machine and their typefaces (every style), looked up once a process:
     * every command's plan and writer build a chain, each with a new collection, and the fonts do not change while
     * the process runs. Typefaces are immutable and may be shared by threads; collections and paragraphs may not.
     */
    private static final class Installed {

        static final Map<String, List<Typeface>> TYPEFACES = find();
        static final List<String> FAMILIES = List.copyOf(TYPEFACES.keySet());

        private static Map<String, List<Typeface>> find() {
            Map<String, List<Typeface>> present = new LinkedHashMap<>();
            for (String family : FALLBACK) {
                try (FontStyleSet styles = FontMgr.Companion.getDefault().matchFamily(family)) {
                    List<Typeface> typefaces = new ArrayList<>();
                    for (int i = 0; i < styles.count(); i++) {
                        Typeface typeface = styles.getTypeface(i);
                        if (typeface != null) {
                            typefaces.add(typeface);
                        }
                    }
                    if (!typefaces.isEmpty()) {
                        present.put(family, List.copyOf(typefaces));
                    }
                }
            }
            return Collections.unmodifiableMap(present);
        }
    }

    public FontCollection collection() {
        return collection;
    }

    /** {@code family} first, then the fallback families installed here. */
    public String[] families(String family) {
        List<String> families = new ArrayList<>();
        if (family != null) {
            families.add(family);
        }
        families.addAll(fallback);
        return families.toArray(String[]::new);
    }

    /**
     * The families of a run of emoji ({@link EmojiRuns}): the colour emoji font, then as {@link #families}; null when
     * no colour emoji font is installed (or the chain has no fallback), so emoji take the family's glyphs as before.
     */
    public String[] emojiFamilies(String family) {
        if (!fallback.contains(EmojiRuns.FAMILY)) {
            return null;
        }
        List<String> families = new ArrayList<>();
        families.add(EmojiRuns.FAMILY);
        for (String name : families(family)) {
            if (!name.equals(EmojiRuns.FAMILY)) {
                families.add(name);
            }
        }
        return families.toArray(String[]::new);
    }

    /** The fallback families found on this machine (a missing Noto package shows as a shorter list). */
    public List<String> fallback() {
        return fallback;
    }
}
