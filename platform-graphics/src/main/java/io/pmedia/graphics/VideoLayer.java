package io.pmedia.graphics;

import java.util.Objects;

import io.pmedia.graphics.draw.VideoFrames;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Keyframes;

/**
 * A video drawn over the box at ({@code x}, {@code y}) of {@code width} x {@code height}, clipped to it, moved by its
 * keyframes as any layer. Its frames come from {@code frames} ({@code frameWidth} x {@code frameHeight} each, already
 * fitted to the box by whoever decodes them, and drawn stretched over it), opened when the layer first shows: frame
 * n shows from n / fps seconds into the layer, the last one holds to its end (a video freezes on its last frame). A
 * stream that fails is a {@link SceneException} whose path is {@code name} (how the caller names the layer).
 */
public record VideoLayer(Timing timing, String name, VideoFrames frames, double x, double y, double width,
        double height, int frameWidth, int frameHeight, Keyframes keyframes) implements Layer {

    public VideoLayer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(frames, "frames");
        if (keyframes == null) {
            keyframes = Keyframes.NONE;
        }
        if (!(width > 0) || !(height > 0) || frameWidth < 1 || frameHeight < 1) {
            throw new IllegalArgumentException("a video's box and frames are wider and higher than 0");
        }
        if ((long) frameWidth * frameHeight > 8192L * 8192) {
            throw new IllegalArgumentException("a video's frames are at most 8192x8192 pixels");
        }
    }

    /** The frame that shows {@code time} seconds into the scene's timeline (negative before the layer). */
    public long frameAt(double time, double fps) {
        return (long) Math.floor((time - timing.start()) * fps + 1e-6);
    }
}
