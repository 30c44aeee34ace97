package io.pmedia.media.render;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.font.LineMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * Breaks a text into lines that fit a width, the way a designer would: at the template's size if the text fits in
 * {@code maxLines} lines (as evenly long as they can be), else at smaller sizes down to {@code minSize}, and only
 * then by breaking long words and ending the last line with an ellipsis. FFmpeg's drawtext does not wrap, and a name is as long as it is.
 * <p>
 * Widths are measured with the same font file FFmpeg draws with, with a small margin, since FreeType's hinted
 * advances can differ from Java's by a pixel here and there. Deterministic: the same inputs give the same lines.
 */
final class TextLayout {

    static final String ELLIPSIS = "\u2026";
    /** Measured widths are scaled by this before comparing with the available width. */
    static final double SAFETY = 1.03;

    private static final FontRenderContext CONTEXT = new FontRenderContext(null, true, true);

    /** Lines to draw at {@code size} pixels; {@code ascent} and {@code descent} of the font at that size. */
    record Laid(int size, List<String> lines, int ascent, int descent) {
    }

    private TextLayout() {
    }

    static Laid fit(String text, Font font, int size, int minSize, int maxWidth, int maxLines) {
        List<String> paragraphs = List.of(text.split("\n", -1));
        int smallest = Math.min(minSize, size);
        for (int s = size; s >= smallest; s -= Math.max(1, Math.round(s * 0.06f))) {
            Font sized = font.deriveFont((float) s);
            List<String> lines = wrap(paragraphs, sized, maxWidth, false);
            if (lines != null && lines.size() <= maxLines) {
                return laid(font, s, balance(paragraphs, sized, maxWidth, lines));
            }
        }
        Font small = font.deriveFont((float) smallest);
        List<String> lines = wrap(paragraphs, small, maxWidth, true);
        if (lines.size() > maxLines) {
            List<String> kept = new ArrayList<>(lines.subList(0, maxLines));
            kept.set(maxLines - 1, ellipsize(kept.get(maxLines - 1), small, maxWidth));
            lines = kept;
        }
        return laid(font, smallest, lines);
    }

    /**
     * The same number of lines, as even as they can be: the narrowest width at which greedy wrapping still needs no
     * more lines ("See you soon, / Ada Lovelace" rather than "See you soon, Ada / Lovelace").
     */
    private static List<String> balance(List<String> paragraphs, Font font, int maxWidth, List<String> lines) {
        if (lines.size() < 2) {
            return lines;
        }
        int low = 1;
        int high = maxWidth;
        List<String> best = lines;
        while (low < high) {
            int width = (low + high) / 2;
            List<String> narrower = wrap(paragraphs, font, width, false);
            if (narrower != null && narrower.size() <= lines.size()) {
                high = width;
                best = narrower;
            } else {
                low = width + 1;
            }
        }
        return best;
    }

    private static Laid laid(Font font, int size, List<String> lines) {
        LineMetrics metrics = font.deriveFont((float) size).getLineMetrics("Hg", CONTEXT);
        return new Laid(size, List.copyOf(lines), Math.round(metrics.getAscent()), Math.round(metrics.getDescent()));
    }

    /** Greedy word wrap; null when a word is too wide and {@code breakWords} is false. */
    private static List<String> wrap(List<String> paragraphs, Font font, int maxWidth, boolean breakWords) {
        List<String> lines = new ArrayList<>();
        for (String paragraph : paragraphs) {
            String line = "";
            for (String word : paragraph.strip().split(" +")) {
                if (word.isEmpty()) {
                    continue;
                }
                String candidate = line.isEmpty() ? word : line + " " + word;
                if (fits(candidate, font, maxWidth)) {
                    line = candidate;
                    continue;
                }
                if (!line.isEmpty()) {
                    lines.add(line);
                }
                line = word;
                if (!fits(word, font, maxWidth)) {
                    if (!breakWords) {
                        return null;
                    }
                    List<String> pieces = breakWord(word, font, maxWidth);
                    lines.addAll(pieces.subList(0, pieces.size() - 1));
                    line = pieces.get(pieces.size() - 1);
                }
            }
            lines.add(line);
        }
        return lines;
    }

    private static List<String> breakWord(String word, Font font, int maxWidth) {
        List<String> pieces = new ArrayList<>();
        StringBuilder piece = new StringBuilder();
        word.codePoints().forEach(c -> {
            String longer = piece + new String(Character.toChars(c));
            if (piece.length() > 0 && !fits(longer, font, maxWidth)) {
                pieces.add(piece.toString());
                piece.setLength(0);
            }
            piece.appendCodePoint(c);
        });
        pieces.add(piece.toString());
        return pieces;
    }

    private static String ellipsize(String line, Font font, int maxWidth) {
        String text = line.strip();
        while (!text.isEmpty() && !fits(text + ELLIPSIS, font, maxWidth)) {
            text = text.substring(0, text.offsetByCodePoints(text.length(), -1)).strip();
        }
        return text + ELLIPSIS;
    }

    static double width(String text, Font font) {
        return font.getStringBounds(text, CONTEXT).getWidth();
    }

    private static boolean fits(String text, Font font, int maxWidth) {
        return width(text, font) * SAFETY <= maxWidth;
    }
}
