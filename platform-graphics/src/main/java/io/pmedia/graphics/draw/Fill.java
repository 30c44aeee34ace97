package io.pmedia.graphics.draw;

import java.util.List;

/**
 * How an area is painted: one colour, or a gradient whose geometry is in fractions of the painted box (0,0 its
 * top-left corner, 1,1 its bottom-right), so that the same fill fits a box of any size. Colours are ARGB.
 */
public sealed interface Fill {

    record Solid(int color) implements Fill {
    }

    /** A stop: {@code color} at {@code offset} (0..1) along the gradient. */
    record Stop(double offset, int color) {
    }

    /** From (x0,y0) to (x1,y1). */
    record Linear(double x0, double y0, double x1, double y1, List<Stop> stops) implements Fill {
    }

    /** Around (cx,cy) out to {@code radius} (a fraction of the box's larger side). */
    record Radial(double cx, double cy, double radius, List<Stop> stops) implements Fill {
    }
}
