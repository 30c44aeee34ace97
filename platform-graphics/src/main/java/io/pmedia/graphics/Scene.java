package io.pmedia.graphics;

import java.util.List;

/** What is drawn over a picture of {@code width} x {@code height} pixels at {@code fps} frames a second. */
public record Scene(int width, int height, double fps, List<Layer> layers) {

    public Scene {
        if (width < 2 || height < 2 || width > 8192 || height > 8192) {
            throw new IllegalArgumentException("a scene is 2 to 8192 pixels a side, not " + width + "x" + height);
        }
        if (!(fps > 0)) {
            throw new IllegalArgumentException("fps must be positive");
        }
        layers = List.copyOf(layers);
    }

    /** The time of frame {@code index}: frame i shows from i / fps. */
    public double time(long index) {
        return index / fps;
    }
}
