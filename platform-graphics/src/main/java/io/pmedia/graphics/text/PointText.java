package io.pmedia.graphics.text;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.FontStyle;
import org.jetbrains.skia.paragraph.Alignment;
import org.jetbrains.skia.paragraph.Direction;
import org.jetbrains.skia.paragraph.LineMetrics;
import org.jetbrains.skia.paragraph.Paragraph;
import org.jetbrains.skia.paragraph.ParagraphBuilder;
import org.jetbrains.skia.paragraph.ParagraphStyle;

/**
 * Text set on a point, as After Effects sets point text (and Lottie stores it): lines break only where the text
 * breaks them, their baselines {@code lineHeight} pixels apart, each aligned on x = 0 (its left end, its right end or
 * its middle), the first baseline at y = 0. Shaped like every other text of the engine (HarfBuzz, the bidi
 * algorithm, the family then the fallback chain of {@link FontChain}), in a weight and slant of the family.
 */
public final class PointText implements AutoCloseable {

    /** Where each line stands against x = 0. */
    public enum Align {
        LEFT, RIGHT, CENTER
    }

    private final Paragraph paragraph;
    private final float left;
    private final float top;

    private PointText(Paragraph paragraph, float left, float top) {
        this.paragraph = paragraph;
        this.left = left;
        this.top = top;
    }

    /**
     * @param letterSpacing pixels added after each letter
     * @param color ARGB
     */
    public static PointText lay(String text, String family, FontStyle style, double size, double lineHeight,
            double letterSpacing, int color, Align align, FontChain fonts) {
        String lines = TextBlock.clean(text.replace("\r\n", "\n").replace('\r', '\n'));
        ParagraphStyle paragraphStyle = new ParagraphStyle();
        paragraphStyle.setAlignment(switch (align) {
            case LEFT -> Alignment.LEFT;
            case RIGHT -> Alignment.RIGHT;
            case CENTER -> Alignment.CENTER;
        });
        paragraphStyle.setDirection(TextBlock.rightToLeft(lines) ? Direction.RTL : Direction.LTR);
        // the height multiplier applies to every run, a fallback font's too: baselines stand lineHeight apart
        org.jetbrains.skia.paragraph.TextStyle textStyle = Styles.of(fonts.families(family), size, lineHeight / size,
                color, style, letterSpacing);
        paragraphStyle.setTextStyle(textStyle);
        ParagraphBuilder builder = new ParagraphBuilder(paragraphStyle, fonts.collection());
        builder.pushStyle(textStyle);
        String[] emojiFamilies = fonts.emojiFamilies(family);
        if (emojiFamilies == null) {
            builder.addText(lines);
        } else {
            EmojiRuns.add(builder, lines, Styles.of(emojiFamilies, size, lineHeight / size, color, style,
                    letterSpacing));
        }
        Paragraph paragraph = builder.build();
        paragraph.layout(Float.POSITIVE_INFINITY);
        float width = (float) Math.ceil(paragraph.getMaxIntrinsicWidth()) + 1;
        paragraph.layout(width);
        LineMetrics[] metrics = paragraph.getLineMetrics();
        float baseline = metrics.length == 0 ? 0 : (float) metrics[0].getBaseline();
        float left = switch (align) {
            case LEFT -> 0;
            case RIGHT -> -width;
            case CENTER -> -width / 2;
        };
        return new PointText(paragraph, left, -baseline);
    }

    /** Draws the text, its first baseline at y = 0, aligned on x = 0. */
    public void paint(Canvas canvas) {
        paragraph.paint(canvas, left, top);
    }

    /** Glyphs no font of the chain has (drawn as boxes). */
    public int unresolvedGlyphs() {
        return paragraph.getUnresolvedGlyphsCount();
    }

    @Override
    public void close() {
        paragraph.close();
    }
}
