package io.pmedia.graphics.text;

import java.util.List;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.FilterTileMode;
import org.jetbrains.skia.ImageFilter;
import org.jetbrains.skia.Paint;
import org.jetbrains.skia.Rect;

import io.pmedia.graphics.motion.TextAnimation;
import io.pmedia.graphics.motion.UnitMotion;

/**
 * Draws a laid-out text with its animations: at rest in one paint; while a unit moves, each unit is the shaped
 * block clipped to the unit's boxes and moved, so that joined scripts (Arabic) and clusters (Devanagari, Thai)
 * keep the shapes the shaper gave them whatever moves.
 */
public final class TextPainter {

    private final TextBlock block;
    private final TextAnimation in;
    private final TextAnimation out;
    private final List<List<Rect>> units;
    private final float pad;

    public TextPainter(TextBlock block, TextAnimation in, TextAnimation out) {
        this.block = block;
        this.in = in;
        this.out = out;
        TextAnimation.Unit unit = in != null ? in.unit() : out != null ? out.unit() : TextAnimation.Unit.ALL;
        this.units = block.units(unit);
        this.pad = (float) (block.size() * 0.6);
    }

    public TextBlock block() {
        return block;
    }

    /** The motion of every unit at an instant (for change detection and drawing). */
    public UnitMotion[] motions(double sinceStart, double untilEnd) {
        UnitMotion[] motions = new UnitMotion[units.size()];
        for (int i = 0; i < motions.length; i++) {
            motions[i] = in == null && out == null
                    ? UnitMotion.REST
                    : UnitMotion.at(in, out, i, motions.length, sinceStart, untilEnd, block.size());
        }
        return motions;
    }

    /** Draws the block with its top-left corner at the canvas' origin. */
    public void paint(Canvas canvas, UnitMotion[] motions) {
        boolean rest = true;
        for (UnitMotion motion : motions) {
            rest &= motion.atRest();
        }
        if (rest) {
            block.paint(canvas, 0, 0);
            return;
        }
        for (int i = 0; i < units.size(); i++) {
            UnitMotion motion = motions[i];
            if (motion.opacity() <= 0 || motion.scale() <= 0) {
                continue;
            }
            for (Rect box : units.get(i)) {
                int count = canvas.save();
                float cx = (box.getLeft() + box.getRight()) / 2;
                float cy = (box.getTop() + box.getBottom()) / 2;
                canvas.translate((float) motion.dx() + cx, (float) motion.dy() + cy);
                canvas.scale((float) motion.scale(), (float) motion.scale());
                canvas.translate(-cx, -cy);
                if (motion.opacity() < 1 || motion.blur() > 0) {
                    Paint layer = new Paint();
                    layer.setAlphaf((float) motion.opacity());
                    if (motion.blur() > 0.05) {
                        float sigma = (float) motion.blur() / 2;
                        layer.setImageFilter(ImageFilter.Companion.makeBlur(sigma, sigma, FilterTileMode.DECAL, null,
                                null));
                    }
                    float grow = pad + (float) motion.blur() * 2;
                    canvas.saveLayer(box.getLeft() - grow, box.getTop() - grow, box.getRight() + grow,
                            box.getBottom() + grow, layer);
                }
                canvas.clipRect(Rect.Companion.makeLTRB(box.getLeft(), box.getTop() - pad, box.getRight(),
                        box.getBottom() + pad), true);
                block.paint(canvas, 0, 0);
                canvas.restoreToCount(count);
            }
        }
    }
}
