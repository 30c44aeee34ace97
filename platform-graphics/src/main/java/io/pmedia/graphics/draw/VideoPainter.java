package io.pmedia.graphics.draw;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.FilterMipmap;
import org.jetbrains.skia.FilterMode;
import org.jetbrains.skia.Image;
import org.jetbrains.skia.ImageInfo;
import org.jetbrains.skia.MipmapMode;
import org.jetbrains.skia.Rect;

import io.pmedia.graphics.error.SceneException;

/**
 * A video's frames drawn over its box, read from its {@link VideoFrames} as the scene's clock reaches them: frames
 * are only ever read forward (a renderer draws its frames in order), the ones a frame of the scene skips are read and
 * dropped, and after the last one the video holds it. Only the frame drawn becomes a Skia image, once.
 */
public final class VideoPainter implements AutoCloseable {

    private final VideoFrames source;
    private final String name;
    private final Rect box;
    private final ImageInfo info;
    /** The last frame read whole, and the buffer the next one is read into (swapped when it is whole). */
    private byte[] current;
    private byte[] next;
    private InputStream in;
    /** The index of the frame in {@code current}; -1 before the first. */
    private long read = -1;
    private boolean ended;
    private Image image;
    private long imageIndex = -1;

    /**
     * @param name how the caller names the layer: the path of a {@link SceneException} when the frames fail
     */
    public VideoPainter(VideoFrames source, String name, Rect box, int frameWidth, int frameHeight) {
        this.source = source;
        this.name = name;
        this.box = box;
        this.info = new ImageInfo(frameWidth, frameHeight, ColorType.RGBA_8888, ColorAlphaType.UNPREMUL);
        this.current = new byte[frameWidth * frameHeight * 4];
        this.next = new byte[current.length];
    }

    /**
     * Reads on to frame {@code index} (frames before it are dropped); returns the index of the frame that shows
     * then: {@code index}, or the last frame when the video ended before it, or -1 when it has no frame at all.
     *
     * @throws SceneException when the frames cannot be read (named by the layer)
     */
    public long advance(long index) {
        try {
            while (read < index && !ended) {
                if (in == null) {
                    in = source.open();
                }
                if (in.readNBytes(next, 0, next.length) < next.length) {
                    ended = true;
                } else {
                    byte[] whole = next;
                    next = current;
                    current = whole;
                    read++;
                }
            }
        } catch (IOException e) {
            throw new SceneException(name, e.getMessage() == null ? "the video cannot be read" : e.getMessage());
        }
        return Math.min(index, read);
    }

    /** Draws the frame last {@link #advance advanced} to over the box (stretched: it was fitted when decoded). */
    public void paint(Canvas canvas) {
        if (read < 0) {
            return;
        }
        if (imageIndex != read) {
            if (image != null) {
                image.close();
            }
            image = Image.Companion.makeRaster(info, current, info.getMinRowBytes());
            imageIndex = read;
        }
        canvas.clipRect(box, true);
        canvas.drawImageRect(image, Rect.Companion.makeWH(image.getWidth(), image.getHeight()), box,
                new FilterMipmap(FilterMode.LINEAR, MipmapMode.NONE), null, true);
    }

    @Override
    public void close() {
        if (image != null) {
            image.close();
        }
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
