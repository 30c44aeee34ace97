package io.pmedia.graphics.draw;

import org.jetbrains.skia.Rect;

/** How a picture or an animation of its own size fits a layer's box; centred in it either way. */
public enum Fit {
    /** All of it, as large as the box allows (the default). */
    CONTAIN,
    /** The box filled, the overflow clipped. */
    COVER,
    /** Stretched to the box on each axis. */
    FILL;

    /** Where content of {@code width} x {@code height} is drawn to fit {@code box} (it may overflow: COVER). */
    public Rect place(Rect box, float width, float height) {
        float scaleX = box.getWidth() / width;
        float scaleY = box.getHeight() / height;
        switch (this) {
            case CONTAIN -> scaleX = scaleY = Math.min(scaleX, scaleY);
            case COVER -> scaleX = scaleY = Math.max(scaleX, scaleY);
            case FILL -> {
            }
        }
        return Rect.Companion.makeXYWH(box.getLeft() + (box.getWidth() - width * scaleX) / 2,
                box.getTop() + (box.getHeight() - height * scaleY) / 2, width * scaleX, height * scaleY);
    }
}
