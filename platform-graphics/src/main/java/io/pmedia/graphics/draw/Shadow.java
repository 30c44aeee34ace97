package io.pmedia.graphics.draw;

/** A drop shadow: ARGB {@code color}, offset by {@code dx}, {@code dy} pixels, blurred by {@code blur} pixels. */
public record Shadow(int color, double dx, double dy, double blur) {
}
