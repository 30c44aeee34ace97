package io.pmedia.graphics.motion;

/**
 * Where a layer is at one instant, relative to where it was laid out: moved by {@code x}, {@code y} pixels, scaled
 * and rotated (degrees, clockwise) about its anchor ({@code anchorX}, {@code anchorY} as fractions of its box, 0.5
 * the middle), and drawn at {@code opacity}.
 */
public record Transform(double x, double y, double scale, double rotation, double opacity, double anchorX,
        double anchorY) {

    public static final Transform IDENTITY = new Transform(0, 0, 1, 0, 1, 0.5, 0.5);

    public boolean isIdentity() {
        return equals(IDENTITY);
    }
}
