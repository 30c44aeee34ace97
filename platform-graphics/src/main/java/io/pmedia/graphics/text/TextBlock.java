package io.pmedia.graphics.text;

import java.util.ArrayList;
import java.util.List;

import org.jetbrains.skia.BreakIterator;
import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.Paint;
import org.jetbrains.skia.Rect;
import org.jetbrains.skia.paragraph.Alignment;
import org.jetbrains.skia.paragraph.Direction;
import org.jetbrains.skia.paragraph.LineMetrics;
import org.jetbrains.skia.paragraph.Paragraph;
import org.jetbrains.skia.paragraph.ParagraphBuilder;
import org.jetbrains.skia.paragraph.ParagraphStyle;
import org.jetbrains.skia.paragraph.RectHeightMode;
import org.jetbrains.skia.paragraph.RectWidthMode;
import org.jetbrains.skia.paragraph.Shadow;

import io.pmedia.graphics.motion.TextAnimation;

/**
 * A text laid out once and drawn many times: shaped by Skia's paragraph module (HarfBuzz, the Unicode bidi
 * algorithm, ICU line breaking) with the {@link FontChain}'s fallback, and fitted by the rules of templates.md: at
 * the style's size when it fits in {@code maxLines} lines without breaking a word (lines then made as even as
 * they can be), else at smaller sizes down to {@code minSize}, and only at {@code minSize} with long words broken
 * and the last line ended with an ellipsis. Coordinates are the block's own: (0,0) its top-left corner.
 */
public final class TextBlock {

    public static final String ELLIPSIS = "\u2026";

    private final Paragraph paragraph;
    private final String text;
    private final double size;
    private final double width;

    private TextBlock(Paragraph paragraph, String text, double size, double width) {
        this.paragraph = paragraph;
        this.text = text;
        this.size = size;
        this.width = width;
    }

    /** Lays {@code text} out at most {@code maxWidth} pixels wide, its lines aligned by {@code alignment}. */
    public static TextBlock lay(String text, TextStyle style, FontChain fonts, double maxWidth, Alignment alignment) {
        String clean = clean(text);
        double smallest = style.minSize();
        String widest = widestUnbreakable(clean, style, fonts, alignment);
        for (double s = style.size(); s >= smallest; s -= Math.max(1, Math.round(s * 0.06))) {
            double widestWidth = naturalWidth(widest, style, fonts, s, alignment);
            if (widestWidth > maxWidth) {
                continue;
            }
            Paragraph paragraph = build(clean, style, fonts, s, 0, alignment);
            paragraph.layout((float) maxWidth);
            if (paragraph.getLineNumber() <= style.maxLines()) {
                return balanced(paragraph, clean, s, maxWidth, widestWidth);
            }
        }
        Paragraph paragraph = build(clean, style, fonts, smallest, style.maxLines(), alignment);
        paragraph.layout((float) maxWidth);
        return new TextBlock(paragraph, clean, smallest, maxWidth);
    }

    /**
     * The piece of text between two line-break opportunities (UAX #14, as ICU and Skia break) that is widest at the
     * style's size: if it fits, no word has to be broken. Skia's own minimum intrinsic width is not used, as it
     * counts a word it force-broke by its pieces.
     */
    private static String widestUnbreakable(String text, TextStyle style, FontChain fonts, Alignment alignment) {
        java.text.BreakIterator breaks = java.text.BreakIterator.getLineInstance();
        breaks.setText(text);
        String widest = "";
        double width = -1;
        int start = breaks.first();
        for (int end = breaks.next(); end != java.text.BreakIterator.DONE; start = end, end = breaks.next()) {
            String piece = text.substring(start, end).strip();
            if (piece.isEmpty()) {
                continue;
            }
            double pieceWidth = naturalWidth(piece, style, fonts, style.size(), alignment);
            if (pieceWidth > width) {
                width = pieceWidth;
                widest = piece;
            }
        }
        return widest;
    }

    private static double naturalWidth(String text, TextStyle style, FontChain fonts, double size,
            Alignment alignment) {
        if (text.isEmpty()) {
            return 0;
        }
        Paragraph paragraph = build(text, style, fonts, size, 0, alignment);
        paragraph.layout(Float.POSITIVE_INFINITY);
        double width = paragraph.getMaxIntrinsicWidth();
        paragraph.close();
        return width;
    }

    /** The same number of lines, as even as they can be: the narrowest width that needs no more lines
     * and breaks no word ({@code widest}: the widest unbreakable piece). */
    private static TextBlock balanced(Paragraph paragraph, String text, double size, double maxWidth,
            double widest) {
        int lines = paragraph.getLineNumber();
        if (lines < 2) {
            double width = Math.min(maxWidth, Math.ceil(paragraph.getMaxIntrinsicWidth()) + 1);
            paragraph.layout((float) width);
            return new TextBlock(paragraph, text, size, width);
        }
        double low = Math.ceil(widest) - 1;
        double high = maxWidth;
        while (high - low > 1) {
            double middle = Math.floor((low + high) / 2);
            paragraph.layout((float) middle);
            if (paragraph.getLineNumber() <= lines) {
                high = middle;
            } else {
                low = middle;
            }
        }
        paragraph.layout((float) high);
        return new TextBlock(paragraph, text, size, high);
    }

    private static Paragraph build(String text, TextStyle style, FontChain fonts, double size, int maxLines,
            Alignment alignment) {
        ParagraphStyle paragraphStyle = new ParagraphStyle();
        paragraphStyle.setAlignment(alignment);
        paragraphStyle.setDirection(rightToLeft(text) ? Direction.RTL : Direction.LTR);
        if (maxLines > 0) {
            paragraphStyle.setMaxLinesCount(maxLines);
            paragraphStyle.setEllipsis(ELLIPSIS);
        }
        org.jetbrains.skia.paragraph.TextStyle textStyle = textStyle(fonts.families(style.family()), style, size);
        paragraphStyle.setTextStyle(textStyle);
        ParagraphBuilder builder = new ParagraphBuilder(paragraphStyle, fonts.collection());
        builder.pushStyle(textStyle);
        String[] emojiFamilies = fonts.emojiFamilies(style.family());
        if (emojiFamilies == null) {
            builder.addText(text);
        } else {
            EmojiRuns.add(builder, text, textStyle(emojiFamilies, style, size));
        }
        return builder.build();
    }

    private static org.jetbrains.skia.paragraph.TextStyle textStyle(String[] families, TextStyle style, double size) {
        org.jetbrains.skia.paragraph.TextStyle textStyle = Styles.of(families, size, style.lineHeight(),
                style.color());
        if (style.shadowColor() != 0) {
            double offset = Math.max(1, size / 24);
            textStyle.addShadow(new Shadow(style.shadowColor(), (float) offset, (float) offset, 0));
        }
        return textStyle;
    }

    /**
     * What the engine draws of a vendor's text: control characters other than line breaks become spaces (a tab,
     * a carriage return) or go (the rest), so nothing invisible moves a line out of its box.
     */
    static String clean(String text) {
        StringBuilder clean = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '\n') {
                clean.append('\n');
            } else if (c == '\t' || c == '\r' || c == 0x2028 || c == 0x2029 || c == 0x0B || c == 0x0C) {
                clean.append(' ');
            } else if (Character.getType(c) != Character.CONTROL) {
                clean.appendCodePoint(c);
            }
        });
        return clean.toString();
    }

    /**
     * As HTML's dir="auto" (the Unicode bidi algorithm's rules P2 and P3): right to left when the first strong
     * character is, skipping what is inside an isolate (U+2066, U+2067 or U+2068 to its U+2069).
     */
    static boolean rightToLeft(String text) {
        int isolates = 0;
        for (int i = 0; i < text.length();) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (c >= 0x2066 && c <= 0x2068) {
                isolates++;
                continue;
            }
            if (c == 0x2069) {
                isolates = Math.max(0, isolates - 1);
                continue;
            }
            if (isolates > 0) {
                continue;
            }
            byte direction = Character.getDirectionality(c);
            if (direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                    || direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC) {
                return true;
            }
            if (direction == Character.DIRECTIONALITY_LEFT_TO_RIGHT) {
                return false;
            }
        }
        return false;
    }

    /** Paints the letters with {@code paint} (a gradient over the block) instead of the style's colour. */
    public void foreground(Paint paint) {
        paragraph.updateForegroundPaint(0, text.length(), paint);
    }

    public void paint(Canvas canvas, double x, double y) {
        paragraph.paint(canvas, (float) x, (float) y);
    }

    /** The size the text was set at (smaller than the style's when it had to shrink). */
    public double size() {
        return size;
    }

    /** The width the lines are aligned in. */
    public double width() {
        return width;
    }

    public double height() {
        return paragraph.getHeight();
    }

    public int lines() {
        return paragraph.getLineNumber();
    }

    /** True when the text was cut at the last line (ended with the ellipsis). */
    public boolean ellipsized() {
        return paragraph.didExceedMaxLines();
    }

    /** Glyphs no font of the chain has (drawn as boxes): 0 for text every character of which is shaped. */
    public int unresolvedGlyphs() {
        return paragraph.getUnresolvedGlyphsCount();
    }

    /** The drawn extent of each line: left, top, right, bottom. */
    public List<Rect> lineBoxes() {
        List<Rect> boxes = new ArrayList<>();
        for (LineMetrics line : paragraph.getLineMetrics()) {
            double top = line.getBaseline() - line.getAscent();
            boxes.add(Rect.Companion.makeLTRB((float) line.getLeft(), (float) top,
                    (float) (line.getLeft() + line.getWidth()), (float) (line.getBaseline() + line.getDescent())));
        }
        return boxes;
    }

    /**
     * The units a text animation moves one by one, in reading order, each as the boxes it covers (a word split by
     * a bidi run may cover two). Letters are grapheme clusters, so a Devanagari or Thai cluster moves as one;
     * a unit cut off by the ellipsis has no box and is left out.
     */
    public List<List<Rect>> units(TextAnimation.Unit unit) {
        List<List<Rect>> units = new ArrayList<>();
        switch (unit) {
            case ALL -> units.add(List.of(Rect.Companion.makeLTRB(0, 0, (float) width, (float) height())));
            case LINE -> lineBoxes().forEach(box -> units.add(List.of(box)));
            case LETTER -> addUnits(clusters(), units);
            case WORD -> {
                // the JDK's words (a name in Han stays one word), never cut inside one of ICU's clusters
                java.util.Set<Integer> clusters = new java.util.HashSet<>(clusters());
                java.text.BreakIterator words = java.text.BreakIterator.getWordInstance();
                words.setText(text);
                List<Integer> bounds = new ArrayList<>();
                for (int at = words.first(); at != java.text.BreakIterator.DONE; at = words.next()) {
                    if (clusters.contains(at)) {
                        bounds.add(at);
                    }
                }
                addUnits(bounds, units);
            }
        }
        return units;
    }

    /**
     * The boundaries of the text's grapheme clusters, ICU's (the shaper's): the JDK's letters split an emoji's
     * sequence (a skin tone, a family, a flag) into pieces that have no box of their own, so the emoji vanished while
     * its unit moved.
     */
    private List<Integer> clusters() {
        List<Integer> bounds = new ArrayList<>();
        try (BreakIterator letters = BreakIterator.Companion.makeCharacterInstance(null)) {
            letters.setText(text);
            for (int at = letters.first(); at != BreakIterator.DONE; at = letters.next()) {
                bounds.add(at);
            }
        }
        return bounds;
    }

    /** The boxes of each non-blank unit between two successive {@code bounds}, into {@code units}. */
    private void addUnits(List<Integer> bounds, List<List<Rect>> units) {
        for (int i = 1; i < bounds.size(); i++) {
            int start = bounds.get(i - 1);
            int end = bounds.get(i);
            if (text.substring(start, end).isBlank()) {
                continue;
            }
            List<Rect> boxes = new ArrayList<>();
            for (org.jetbrains.skia.paragraph.TextBox box : paragraph.getRectsForRange(start, end,
                    RectHeightMode.MAX, RectWidthMode.TIGHT)) {
                if (box.getRect().getWidth() > 0) {
                    boxes.add(box.getRect());
                }
            }
            if (!boxes.isEmpty()) {
                units.add(boxes);
            }
        }
    }
}
