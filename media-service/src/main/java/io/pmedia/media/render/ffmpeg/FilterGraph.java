package io.pmedia.media.render.ffmpeg;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * FFmpeg filter-graph quoting and number formatting. A value inside a graph is parsed twice: first by the graph
 * parser (which gives {@code \ ' [ ] , ;} a meaning), then by the filter's option parser ({@code \ ' :}); so it is
 * escaped for the option parser first, then for the graph parser. Every path and expression the engine puts into a
 * graph goes through {@link #value(String)}. Vendor text never enters a graph at all: it travels in files read with
 * {@code textfile=} and {@code expansion=none}.
 */
public final class FilterGraph {

    private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?");

    private FilterGraph() {
    }

    /** An option value, safe inside {@code filter=key=VALUE:key2=...} within a graph. */
    public static String value(String raw) {
        return escape(escape(raw, "\\':"), "\\'[],;");
    }

    /** A number as FFmpeg reads it: no exponent, no locale, at most 6 decimals (rounded), no trailing zeros. */
    public static String number(double value) {
        return plain(BigDecimal.valueOf(value).setScale(6, RoundingMode.HALF_UP));
    }

    /** Like {@link #number(double)} but rounded down: a duration that must not reach the next frame. */
    public static String floor(double value) {
        return plain(BigDecimal.valueOf(value).setScale(6, RoundingMode.FLOOR));
    }

    /** {@code #rrggbb} or {@code #rrggbbaa} as FFmpeg's {@code 0xrrggbb[aa]}. */
    public static String color(String hex) {
        if (hex == null || !COLOR.matcher(hex).matches()) {
            throw new IllegalArgumentException("not a colour: " + hex);
        }
        return "0x" + hex.substring(1).toLowerCase(java.util.Locale.ROOT);
    }

    private static String plain(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.signum() == 0 ? "0" : stripped.toPlainString();
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
