package io.pmedia.graphics.motion;

/**
 * One keyframe of a layer: at {@code time} (seconds into the layer) the properties it names have these values; a
 * null property is not keyed here. {@code easing} shapes the way from this keyframe to the next (as in CSS, where
 * a keyframe's timing function applies to the interval it starts).
 */
public record Keyframe(double time, Double x, Double y, Double scale, Double rotation, Double opacity,
        Double anchorX, Double anchorY, Easing easing) {

    public Keyframe {
        if (easing == null) {
            easing = Easing.LINEAR;
        }
    }
}
