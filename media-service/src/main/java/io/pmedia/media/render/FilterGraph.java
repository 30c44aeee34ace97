package io.pmedia.media.render;

import java.util.Locale;

/**
 * FFmpeg filter-graph quoting. A value is escaped twice: once for the filter's option parser ({@code \ ' :}),
 * then for the graph parser ({@code \ ' [ ] , ;}). Everything the engine puts into a graph goes through
 * {@link #value(String)}; vendor text never does (it travels in files read with {@code textfile=} and
 * {@code expansion=none}).
 */
public final class FilterGraph {

    private FilterGraph() {
    }

    /** An option value, safe inside {@code filter=key=VALUE:key2=...} within a graph. */
    public static String value(String raw) {
        return escape(escape(raw, "\\':"), "\\'[],;");
    }

    /** A number as FFmpeg reads it (no locale, no exponent). */
    public static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e9) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** {@code #rrggbb} or {@code #rrggbbaa} as FFmpeg's {@code 0xrrggbb[aa]}. */
    public static String color(String hex) {
        if (hex == null || !hex.matches("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?")) {
            throw new IllegalArgumentException("not a colour: " + hex);
        }
        return "0x" + hex.substring(1);
    }

    private static String escape(String raw, String special) {
        StringBuilder out = new StringBuilder(raw.length() + 8);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (special.indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
