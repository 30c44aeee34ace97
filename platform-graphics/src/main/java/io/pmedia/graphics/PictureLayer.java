package io.pmedia.graphics;

import java.nio.file.Path;
import java.util.Objects;

import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Keyframes;

/**
 * A still picture (the file at {@code file}: PNG, JPEG, WebP, GIF's first frame or BMP, at most
 * {@value io.pmedia.graphics.draw.PictureFile#MAX_PIXELS} pixels) {@link Fit fitted} (null: contain) into the box
 * at ({@code x}, {@code y}) of {@code width} x {@code height} and clipped to it, moved by its keyframes. The file is
 * read and decoded once, when a {@link FrameRenderer} is made; a file it refuses fails that with a
 * {@link SceneException} whose path is {@code name} (how the caller names the layer).
 */
public record PictureLayer(Timing timing, String name, Path file, double x, double y, double width, double height,
        Fit fit, Keyframes keyframes) implements Layer {

    public PictureLayer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(file, "file");
        if (keyframes == null) {
            keyframes = Keyframes.NONE;
        }
        if (fit == null) {
            fit = Fit.CONTAIN;
        }
        if (!(width > 0) || !(height > 0)) {
            throw new IllegalArgumentException("a picture's box is wider and higher than 0");
        }
    }
}
