package io.pmedia.graphics.draw;

/** An outline {@code width} pixels wide, in ARGB {@code color}. */
public record Stroke(int color, double width) {
}
