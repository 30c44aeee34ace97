package io.pmedia.graphics;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.motion.TextAnimation;
import io.pmedia.graphics.text.TextStyle;

/**
 * A text box: {@code text} laid out by the rules of {@link TextStyle} within {@code maxWidth}, each line aligned
 * on {@code x} ({@link Align}), the block placed at {@code y} ({@link Anchor}: its top, middle or bottom).
 * {@code fill} paints the letters (null: {@link TextStyle#color()}); {@code box} paints behind each line (null:
 * nothing). {@code in} and {@code out} animate the text as it comes and goes (null: none).
 */
public record TextLayer(Timing timing, String text, TextStyle style, double x, Align align, double y, Anchor anchor,
        double maxWidth, Fill fill, Fill box, TextAnimation in, TextAnimation out, Keyframes keyframes)
        implements
            Layer {

    public enum Align {
        LEFT, CENTER, RIGHT
    }

    public enum Anchor {
        TOP, MIDDLE, BOTTOM
    }

    public TextLayer {
        if (keyframes == null) {
            keyframes = Keyframes.NONE;
        }
    }
}
