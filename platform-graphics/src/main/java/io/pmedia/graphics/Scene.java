package io.pmedia.graphics;

import java.util.List;

/**
 * What is drawn over a picture of {@code width} x {@code height} pixels at {@code fps} frames a second.
 * <p>
 * A frame may carry several pictures stacked in bands of {@code bandHeight} pixels (FFmpeg crops each out and
 * overlays it at its place in the layer order, e.g. texts below and above a photo): {@code bands.get(i)} is the
 * band of layer i, which is clipped to it (its coordinates are the frame's, band offset included).
 * <p>
 * With {@code windows} (one per band), a frame carries of each band only its window, the part its layers draw on,
 * the windows stacked one under the other at their {@link Window#top}: the frame is then as wide as the widest window
 * and as high as they are together ({@link #frameWidth()}, {@link #frameHeight()}), so that the engine draws, reads
 * back and writes that much, not whole canvases of nothing.
 */
public record Scene(int width, int height, double fps, List<Layer> layers, int bandHeight, List<Integer> bands,
        List<Window> windows) {

    /** One picture, no bands. */
    public Scene(int width, int height, double fps, List<Layer> layers) {
        this(width, height, fps, layers, height, List.of());
    }

    /** Bands, each carried whole. */
    public Scene(int width, int height, double fps, List<Layer> layers, int bandHeight, List<Integer> bands) {
        this(width, height, fps, layers, bandHeight, bands, List.of());
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
        windows = List.copyOf(windows);
        if (!bands.isEmpty() && bands.size() != layers.size()) {
            throw new IllegalArgumentException("one band per layer");
        }
        if (bandHeight < 1 || bandHeight > height) {
            throw new IllegalArgumentException("bandHeight must be 1 to the height");
        }
        if (!windows.isEmpty()) {
            int needed = bands.stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
            if (windows.size() < needed) {
                throw new IllegalArgumentException("one window per band: " + needed + " bands, " + windows.size()
                        + " windows");
            }
            for (Window window : windows) {
                if (window.x() < 0 || window.y() < 0 || window.width() < 1 || window.height() < 1
                        || window.x() + window.width() > width || window.y() + window.height() > bandHeight
                        || window.top() < 0 || window.top() + window.height() > 8192) {
                    throw new IllegalArgumentException("a window must lie inside its band: " + window);
                }
            }
        }
    }

    /** The same scene, each band carried as its window of {@code windows} (one per band, in band order). */
    public Scene windowed(List<Window> windows) {
        return new Scene(width, height, fps, layers, bandHeight, bands, windows);
    }

    /** The band of layer {@code index} (0 without bands). */
    public int band(int index) {
        return bands.isEmpty() ? 0 : bands.get(index);
    }

    /** How wide a frame written is: the scene's width, or the widest window. */
    public int frameWidth() {
        return windows.isEmpty() ? width : windows.stream().mapToInt(Window::width).max().orElseThrow();
    }

    /** How high a frame written is: the scene's height, or down to the lowest window's bottom. */
    public int frameHeight() {
        return windows.isEmpty()
                ? height
                : windows.stream().mapToInt(window -> window.top() + window.height()).max().orElseThrow();
    }

    /** The time of frame {@code index}: frame i shows from i / fps. */
    public double time(long index) {
        return index / fps;
    }

    /**
     * The part of a band a frame carries: {@code width} x {@code height} pixels from ({@code x}, {@code y}) of the band
     * (the band's own coordinates, its top row 0), at row {@code top} and column 0 of the frame.
     */
    public record Window(int x, int y, int width, int height, int top) {
    }
}
