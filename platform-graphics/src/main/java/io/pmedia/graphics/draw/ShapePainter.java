package io.pmedia.graphics.draw;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ImageFilter;
import org.jetbrains.skia.Paint;
import org.jetbrains.skia.RRect;
import org.jetbrains.skia.Rect;

/** Draws a shape's fill, outline and shadow on a canvas, in the canvas' current transform. */
public final class ShapePainter {

    private ShapePainter() {
    }

    /** The box the shape's gradient and anchor are measured in. */
    public static Rect bounds(Geometry geometry) {
        if (geometry instanceof Geometry.SvgPath svg) {
            Rect path = svg.parsed().getBounds();
            return Rect.Companion.makeXYWH((float) svg.x() + path.getLeft(), (float) svg.y() + path.getTop(),
                    path.getWidth(), path.getHeight());
        }
        return Rect.Companion.makeXYWH((float) geometry.x(), (float) geometry.y(), (float) geometry.width(),
                (float) geometry.height());
    }

    /** Everything the shape may draw on: its box, its stroke's half width and its shadow's offset and blur. */
    public static Rect extent(Geometry geometry, Stroke stroke, Shadow shadow) {
        Rect box = bounds(geometry);
        float grow = 2 + (stroke == null ? 0 : (float) stroke.width());
        if (shadow != null) {
            grow += (float) (Math.max(Math.abs(shadow.dx()), Math.abs(shadow.dy())) + shadow.blur() * 2);
        }
        return Rect.Companion.makeLTRB(box.getLeft() - grow, box.getTop() - grow, box.getRight() + grow,
                box.getBottom() + grow);
    }

    public static void paint(Canvas canvas, Geometry geometry, Fill fill, Stroke stroke, Shadow shadow) {
        int count = canvas.getSaveCount();
        if (shadow != null) {
            Paint layer = new Paint();
            float sigma = (float) (shadow.blur() / 2);
            layer.setImageFilter(ImageFilter.Companion.makeDropShadow((float) shadow.dx(), (float) shadow.dy(), sigma,
                    sigma, shadow.color(), null, null));
            // bounded: an unbounded layer would blur the whole frame for a small shape
            canvas.saveLayer(extent(geometry, stroke, shadow), layer);
        }
        Rect box = bounds(geometry);
        if (fill != null && !(geometry instanceof Geometry.Line)) {
            draw(canvas, geometry, Paints.fill(fill, box.getLeft(), box.getTop(), box.getWidth(), box.getHeight()));
        }
        if (stroke != null) {
            draw(canvas, geometry, Paints.stroke(stroke));
        }
        canvas.restoreToCount(count);
    }

    private static void draw(Canvas canvas, Geometry geometry, Paint paint) {
        float x = (float) geometry.x();
        float y = (float) geometry.y();
        float right = (float) (geometry.x() + geometry.width());
        float bottom = (float) (geometry.y() + geometry.height());
        if (geometry instanceof Geometry.Rect) {
            canvas.drawRect(Rect.Companion.makeLTRB(x, y, right, bottom), paint);
        } else if (geometry instanceof Geometry.RoundedRect rounded) {
            canvas.drawRRect(RRect.Companion.makeLTRB(x, y, right, bottom, (float) rounded.radius()), paint);
        } else if (geometry instanceof Geometry.Ellipse) {
            canvas.drawOval(Rect.Companion.makeLTRB(x, y, right, bottom), paint);
        } else if (geometry instanceof Geometry.Line) {
            canvas.drawLine(x, y, right, bottom, paint);
        } else if (geometry instanceof Geometry.SvgPath svg) {
            int count = canvas.save();
            canvas.translate(x, y);
            canvas.drawPath(svg.parsed(), paint);
            canvas.restoreToCount(count);
        }
    }
}
