package io.pmedia.graphics.text;

/**
 * How a text is set: in the font {@code family} (a name known to the {@link FontChain}, tried before its fallback
 * fonts) at {@code size} pixels, in at most {@code maxLines} lines of {@code lineHeight} times the size; when it
 * does not fit, smaller down to {@code minSize}, and only then with long words broken and an ellipsis. ARGB
 * {@code color}; {@code shadowColor} 0 for no shadow.
 */
public record TextStyle(String family, double size, double minSize, int maxLines, double lineHeight, int color,
        int shadowColor) {

    public TextStyle {
        if (!(size > 0) || !(minSize > 0)) {
            throw new IllegalArgumentException("text sizes must be positive");
        }
        if (maxLines < 1) {
            throw new IllegalArgumentException("maxLines must be at least 1");
        }
        minSize = Math.min(minSize, size);
    }
}
