package io.pmedia.graphics.draw;

import org.jetbrains.skia.Bitmap;
import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.FilterMipmap;
import org.jetbrains.skia.FilterMode;
import org.jetbrains.skia.Image;
import org.jetbrains.skia.ImageInfo;
import org.jetbrains.skia.MipmapMode;
import org.jetbrains.skia.Rect;
import org.jetbrains.skia.SurfaceProps;

/**
 * A still picture fitted into its box, scaled once when the renderer is made (as FFmpeg's {@code scale} brings a
 * picture to its box) and then drawn each frame at that size: a vendor's 8K photo costs one resampling, not one a
 * frame. It is kept at {@code zoom} times its drawn size (the largest scale its keyframes reach, never more than the
 * file's own pixels), so that a picture keyframed to grow stays sharp.
 */
public final class PicturePainter implements AutoCloseable {

    /** The largest side of the kept picture, as a scene's. */
    private static final int MAX_SIDE = 8192;

    private final Image image;
    private final Rect placed;
    private final Rect box;

    private PicturePainter(Image image, Rect placed, Rect box) {
        this.image = image;
        this.placed = placed;
        this.box = box;
    }

    /**
     * {@code source} (closed here) fitted into {@code box}: placed in whole pixels as FFmpeg places a scaled picture
     * (its size rounded, its offset in the box rounded down), resampled with mipmaps. A covering picture keeps only
     * what shows in the box (FFmpeg's {@code crop}), so a picture far wider than its box costs no more than one that
     * fits it.
     */
    public static PicturePainter of(Image source, Rect box, Fit fit, double zoom) {
        try (source) {
            Rect all = Rect.Companion.makeWH(source.getWidth(), source.getHeight());
            Rect exact = fit.place(box, source.getWidth(), source.getHeight());
            Rect shown = all;
            Rect placed;
            if (fit == Fit.COVER) {
                // the part of the source under the box: the box mapped back through the covering scale
                float scale = exact.getWidth() / source.getWidth();
                shown = Rect.Companion.makeXYWH((box.getLeft() - exact.getLeft()) / scale,
                        (box.getTop() - exact.getTop()) / scale, box.getWidth() / scale, box.getHeight() / scale);
                placed = box;
            } else {
                float width = Math.max(1, Math.round(exact.getWidth()));
                float height = Math.max(1, Math.round(exact.getHeight()));
                placed = Rect.Companion.makeXYWH(box.getLeft() + (float) Math.floor((box.getWidth() - width) / 2),
                        box.getTop() + (float) Math.floor((box.getHeight() - height) / 2), width, height);
            }
            double kept = Math.max(1, zoom);
            kept = Math.min(kept, Math.max(1, Math.max(shown.getWidth() / placed.getWidth(),
                    shown.getHeight() / placed.getHeight())));
            kept = Math.min(kept, MAX_SIDE / Math.max(placed.getWidth(), placed.getHeight()));
            int keptWidth = Math.max(1, (int) Math.round(placed.getWidth() * kept));
            int keptHeight = Math.max(1, (int) Math.round(placed.getHeight() * kept));
            return new PicturePainter(resample(source, shown, keptWidth, keptHeight), placed, box);
        }
    }

    private static Image resample(Image source, Rect shown, int width, int height) {
        Bitmap bitmap = new Bitmap();
        try {
            if (!bitmap.allocPixels(new ImageInfo(width, height, ColorType.RGBA_8888, ColorAlphaType.PREMUL))) {
                throw new IllegalStateException("cannot allocate a " + width + "x" + height + " picture");
            }
            try (Canvas canvas = new Canvas(bitmap, new SurfaceProps())) {
                canvas.drawImageRect(source, shown, Rect.Companion.makeWH(width, height),
                        new FilterMipmap(FilterMode.LINEAR, MipmapMode.LINEAR), null, true);
            }
            bitmap.setImmutable();
            return Image.Companion.makeFromBitmap(bitmap);
        } finally {
            bitmap.close();
        }
    }

    /** Draws the picture in the canvas' current transform, clipped to its box. */
    public void paint(Canvas canvas) {
        canvas.clipRect(box, true);
        canvas.drawImageRect(image, Rect.Companion.makeWH(image.getWidth(), image.getHeight()), placed,
                new FilterMipmap(FilterMode.LINEAR, MipmapMode.NONE), null, true);
    }

    @Override
    public void close() {
        image.close();
    }
}
