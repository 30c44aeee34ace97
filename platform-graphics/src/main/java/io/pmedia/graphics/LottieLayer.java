package io.pmedia.graphics;

import io.pmedia.graphics.motion.Keyframes;

/** STUB until the engine lands. */
public record LottieLayer(Timing timing, String json, double x, double y, double width, double height, Fit fit,
        double speed, boolean loop, Keyframes keyframes) implements Layer {
    public enum Fit {
        CONTAIN, COVER, FILL
    }
}
