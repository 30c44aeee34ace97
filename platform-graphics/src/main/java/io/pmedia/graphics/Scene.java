package io.pmedia.graphics;

import java.util.List;

/**
 * What is drawn over a picture of {@code width} x {@code height} pixels at {@code fps} frames a second.
 * <p>
 * A frame may carry several pictures stacked in bands of {@code bandHeight} pixels (FFmpeg crops each out and
 * overlays it at its place in the layer order, e.g. texts below and above a photo): {@code bands.get(i)} is the
 * band of layer i, which is clipped to it (its coordinates are the frame's, band offset included).
 */
public record Scene(int width, int height, double fps, List<Layer> layers, int bandHeight, List<Integer> bands) {

    /** One picture, no bands. */
    public Scene(int width, int height, double fps, List<Layer> layers) {
        this(width, height, fps, layers, height, List.of());
    }

    public Scene {
        if (width < 2 || height < 2 || width > 8192 || height > 8192) {
            throw new IllegalArgumentException("a scene is 2 to 8192 pixels a side, not " + width + "x" + height);
        }
        if (!(fps > 0)) {
            throw new IllegalArgumentException("fps must be positive");
        }
        layers = List.copyOf(layers);
        bands = List.copyOf(bands);
        if (!bands.isEmpty() && bands.size() != layers.size()) {
            throw new IllegalArgumentException("one band per layer");
        }
        if (bandHeight < 1 || bandHeight > height) {
            throw new IllegalArgumentException("bandHeight must be 1 to the height");
        }
    }

    /** The band of layer {@code index} (0 without bands). */
    public int band(int index) {
        return bands.isEmpty() ? 0 : bands.get(index);
    }

    /** The time of frame {@code index}: frame i shows from i / fps. */
    public double time(long index) {
        return index / fps;
    }
}
