package io.pmedia.graphics;

import java.util.Objects;

import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.lottie.LottieCheck;
import io.pmedia.graphics.motion.Keyframes;

/**
 * A Lottie animation played in a box: {@code json} is the file as {@link io.pmedia.graphics.lottie.LottieFile
 * #personalize} returns it, drawn by Skottie {@link Fit fitted} (null: contain) into the box at ({@code x}, {@code y}) of
 * {@code width} x {@code height} and clipped to it. The file's in point shows at the layer's start; the file's time
 * runs at {@code speed} times the scene's; after its out point the last frame holds, or with {@code loop} the
 * animation starts again.
 */
public record LottieLayer(Timing timing, String json, double x, double y, double width, double height, Fit fit,
        double speed, boolean loop, Keyframes keyframes) implements Layer {

    public LottieLayer {
        Objects.requireNonNull(json, "json");
        if (keyframes == null) {
            keyframes = Keyframes.NONE;
        }
        if (fit == null) {
            fit = Fit.CONTAIN;
        }
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed must be positive, not " + speed);
        }
        if (!(width > 0) || !(height > 0)) {
            throw new IllegalArgumentException("a Lottie box is wider and higher than 0");
        }
    }

    /**
     * The frame of the file shown at {@code time} seconds of the scene, given the file's in and out points and
     * frame rate: frames {@code ip} to {@code op - 1} each show for one frame of the file, then the last holds (or
     * the animation starts again).
     */
    public double frameAt(double time, double inPoint, double outPoint, double frameRate) {
        double played = Math.max(0, time - timing.start()) * speed * frameRate;
        double whole = Math.rint(played);
        if (Math.abs(played - whole) < 1e-6) {
            played = whole; // frame i of a scene at the file's rate is the file's frame i, not a hair before it
        }
        double length = outPoint - inPoint;
        if (loop) {
            return inPoint + played % length;
        }
        return Math.min(inPoint + played, Math.max(inPoint, outPoint - 1));
    }

    /**
     * The scene time from which the layer no longer changes of itself (its last frame holds): the start plus the
     * file's duration at this speed; never with {@code loop}. Fades and keyframes of the layer are apart from this.
     */
    public double stillFrom(LottieCheck file) {
        if (loop) {
            return Double.POSITIVE_INFINITY;
        }
        return timing.start() + Math.max(0, file.duration() - 1 / file.frameRate()) / speed;
    }
}
