package io.pmedia.graphics;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.draw.Shadow;
import io.pmedia.graphics.draw.Stroke;
import io.pmedia.graphics.motion.Keyframes;

/** A shape: its outline, filled (or not: {@code fill} null), outlined (or not) and with a drop shadow (or not). */
public record ShapeLayer(Timing timing, Geometry geometry, Fill fill, Stroke stroke, Shadow shadow,
        Keyframes keyframes) implements Layer {

    public ShapeLayer {
        if (keyframes == null) {
            keyframes = Keyframes.NONE;
        }
    }
}
