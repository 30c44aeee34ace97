package io.pmedia.graphics;

import io.pmedia.graphics.motion.Keyframes;

/**
 * Something drawn in a scene for a while: a {@link TextLayer}, a {@link ShapeLayer}, a {@link LottieLayer}, a
 * {@link PictureLayer} or a {@link VideoLayer}.
 */
public sealed interface Layer permits TextLayer, ShapeLayer, LottieLayer, PictureLayer, VideoLayer {

    Timing timing();

    /** Times in seconds into the layer (0 at {@code timing().start()}). */
    Keyframes keyframes();
}
