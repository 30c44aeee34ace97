package io.pmedia.graphics.text;

import java.util.ArrayList;
import java.util.List;

import org.jetbrains.skia.BreakIterator;
import org.jetbrains.skia.icu.CharProperties;
import org.jetbrains.skia.paragraph.ParagraphBuilder;
import org.jetbrains.skia.paragraph.TextStyle;

/**
 * Emoji drawn as emoji. A font that has a plain glyph for an emoji's code point wins over the colour emoji font
 * behind it in the chain: DejaVu Sans draws ❤️ (U+2764 U+FE0F) and 😀 as outlines in the text's colour, where every
 * phone shows them in colour. So the grapheme clusters (ICU's, the shaper's) that ask for emoji presentation are set
 * in a style whose first family is the colour emoji font, the rest in the text's own: a cluster with U+FE0F, a
 * keycap, a skin tone, a joiner sequence of pictographs, a flag, or an emoji whose default presentation is emoji
 * (UTS #51). U+FE0E asks for text presentation and is obeyed.
 */
final class EmojiRuns {

    /** The colour emoji font (Debian's fonts-noto-color-emoji). */
    static final String FAMILY = "Noto Color Emoji";

    private static final char TEXT_PRESENTATION = '\uFE0E';
    private static final char EMOJI_PRESENTATION = '\uFE0F';
    private static final char KEYCAP = '\u20E3';
    private static final char JOINER = '\u200D';
    /** Below it no code point is an emoji that needs its own run: the first is U+00A9 ©. */
    private static final char FIRST_EMOJI = '\u00A9';

    private EmojiRuns() {
    }

    /**
     * Adds {@code text} to {@code builder}: its emoji runs in {@code emoji}, the rest in the style already pushed
     * (which each run of emoji is popped back to).
     */
    static void add(ParagraphBuilder builder, String text, TextStyle emoji) {
        int at = 0;
        for (int[] run : of(text)) {
            builder.addText(text.substring(at, run[0]));
            builder.pushStyle(emoji);
            builder.addText(text.substring(run[0], run[1]));
            builder.popStyle();
            at = run[1];
        }
        builder.addText(text.substring(at));
    }

    /** The {@code [start, end)} of each run of clusters of {@code text} drawn as emoji, in order. */
    static List<int[]> of(String text) {
        List<int[]> runs = new ArrayList<>();
        if (text.chars().noneMatch(c -> c >= FIRST_EMOJI)) {
            return runs;
        }
        try (BreakIterator clusters = BreakIterator.Companion.makeCharacterInstance(null)) {
            clusters.setText(text);
            int start = clusters.first();
            for (int end = clusters.next(); end != BreakIterator.DONE; start = end, end = clusters.next()) {
                if (!emoji(text.substring(start, end))) {
                    continue;
                }
                if (!runs.isEmpty() && runs.get(runs.size() - 1)[1] == start) {
                    runs.get(runs.size() - 1)[1] = end;
                } else {
                    runs.add(new int[]{start, end});
                }
            }
        }
        return runs;
    }

    /** Whether a grapheme cluster asks to be drawn as an emoji (UTS #51's presentation rules). */
    static boolean emoji(String cluster) {
        int first = cluster.codePointAt(0);
        if (first < FIRST_EMOJI && cluster.indexOf(EMOJI_PRESENTATION) < 0 || cluster.indexOf(TEXT_PRESENTATION) >= 0
                || !has(first, CharProperties.EMOJI)) {
            return false;
        }
        if (has(first, CharProperties.EMOJI_PRESENTATION) || has(first, CharProperties.REGIONAL_INDICATOR)
                || cluster.indexOf(EMOJI_PRESENTATION) >= 0 || cluster.indexOf(KEYCAP) >= 0) {
            return true;
        }
        if (cluster.indexOf(JOINER) >= 0 && has(first, CharProperties.EXTENDED_PICTOGRAPHIC)) {
            return true;
        }
        return has(first, CharProperties.EMOJI_MODIFIER_BASE)
                && cluster.codePoints().skip(1).anyMatch(c -> has(c, CharProperties.EMOJI_MODIFIER));
    }

    private static boolean has(int codePoint, int property) {
        return CharProperties.INSTANCE.codePointHasBinaryProperty(codePoint, property);
    }
}
