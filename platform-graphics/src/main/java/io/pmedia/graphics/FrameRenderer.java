package io.pmedia.graphics;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;

import org.jetbrains.skia.Bitmap;
import org.jetbrains.skia.BlendMode;
import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.Image;
import org.jetbrains.skia.ImageInfo;
import org.jetbrains.skia.Paint;
import org.jetbrains.skia.Rect;
import org.jetbrains.skia.SurfaceProps;
import org.jetbrains.skia.paragraph.Alignment;

import io.pmedia.graphics.draw.Paints;
import io.pmedia.graphics.draw.PictureFile;
import io.pmedia.graphics.draw.PicturePainter;
import io.pmedia.graphics.draw.ShapePainter;
import io.pmedia.graphics.draw.VideoPainter;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.lottie.LottiePainter;
import io.pmedia.graphics.motion.Transform;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.graphics.text.TextBlock;
import io.pmedia.graphics.text.TextPainter;

/**
 * Draws the frames of a {@link Scene}: every text laid out and every picture decoded once up front (a video's frames
 * read as the frames reach them), then each frame drawn on a transparent raster in layer order (each layer moved by
 * its keyframes about its anchor, faded, its text animated) and read back as RGBA with straight (not premultiplied)
 * alpha, the layout FFmpeg's {@code rawvideo} {@code rgba} input and {@code overlay} expect. One renderer per thread:
 * Skia's canvas and paragraphs are not thread-safe.
 */
public final class FrameRenderer implements AutoCloseable {

    private final Scene scene;
    private final List<Object> painters = new ArrayList<>();
    private final List<Rect> boxes = new ArrayList<>();
    /** What each layer may draw on (its box, and around it its shadow, stroke, animation's reach). */
    private final List<Rect> extents = new ArrayList<>();
    private final Bitmap bitmap = new Bitmap();
    private final Canvas canvas;
    private final ImageInfo premultiplied;
    /** Draws a picture's pixels as they are, replacing what is under them. */
    private final Paint copy = new Paint();
    /** The states of the last frame drawn, and a picture of its bottom layers that had not changed. */
    private List<Object> previous;
    private Image below;
    private int belowCount;
    private List<Object> belowStates;

    /**
     * Lays out every text and decodes every picture of {@code scene} (once: frames only draw them).
     *
     * @throws SceneException when a picture's file is refused (its path the layer's name)
     */
    public FrameRenderer(Scene scene, FontChain fonts) {
        this.scene = scene;
        try {
            prepare(fonts);
        } catch (RuntimeException e) {
            closePainters();
            throw e;
        }
        int width = scene.frameWidth();
        int height = scene.frameHeight();
        this.premultiplied = new ImageInfo(width, height, ColorType.RGBA_8888, ColorAlphaType.PREMUL);
        if (!bitmap.allocPixels(premultiplied)) {
            closePainters();
            throw new IllegalStateException("cannot allocate a " + width + "x" + height + " frame");
        }
        this.canvas = new Canvas(bitmap, new SurfaceProps());
        copy.setBlendMode(BlendMode.SRC);
    }

    private void prepare(FontChain fonts) {
        for (Layer layer : scene.layers()) {
            if (layer instanceof TextLayer text) {
                Alignment alignment = switch (text.align()) {
                    case LEFT -> Alignment.LEFT;
                    case CENTER -> Alignment.CENTER;
                    case RIGHT -> Alignment.RIGHT;
                };
                TextBlock block = TextBlock.lay(text.text(), text.style(), fonts, text.maxWidth(), alignment);
                if (text.fill() != null) {
                    block.foreground(Paints.fill(text.fill(), 0, 0, block.width(), block.height()));
                }
                double left = switch (text.align()) {
                    case LEFT -> text.x();
                    case CENTER -> text.x() - block.width() / 2;
                    case RIGHT -> text.x() - block.width();
                };
                double top = switch (text.anchor()) {
                    case TOP -> text.y();
                    case MIDDLE -> text.y() - block.height() / 2;
                    case BOTTOM -> text.y() - block.height();
                };
                painters.add(new TextPainter(block, text.in(), text.out()));
                boxes.add(Rect.Companion.makeXYWH((float) left, (float) top, (float) block.width(),
                        (float) block.height()));
                float reach = (float) (block.size() * 1.5 + distance(text.in()) + distance(text.out()));
                extents.add(Rect.Companion.makeLTRB((float) left - reach, (float) top - reach,
                        (float) (left + block.width()) + reach, (float) (top + block.height()) + reach));
            } else if (layer instanceof ShapeLayer shape) {
                painters.add(shape);
                boxes.add(ShapePainter.bounds(shape.geometry()));
                extents.add(ShapePainter.extent(shape.geometry(), shape.stroke(), shape.shadow()));
            } else if (layer instanceof LottieLayer lottie) {
                painters.add(new Lottie(lottie, new LottiePainter(lottie.json(), fonts)));
                Rect box = Rect.Companion.makeXYWH((float) lottie.x(), (float) lottie.y(), (float) lottie.width(),
                        (float) lottie.height());
                boxes.add(box);
                extents.add(box); // clipped to its box
            } else if (layer instanceof PictureLayer picture) {
                Rect box = Rect.Companion.makeXYWH((float) picture.x(), (float) picture.y(),
                        (float) picture.width(), (float) picture.height());
                painters.add(PicturePainter.of(PictureFile.decode(read(picture), picture.name()), box,
                        picture.fit(), picture.keyframes().largestScale()));
                boxes.add(box);
                extents.add(box); // clipped to its box
            } else if (layer instanceof VideoLayer video) {
                Rect box = Rect.Companion.makeXYWH((float) video.x(), (float) video.y(), (float) video.width(),
                        (float) video.height());
                painters.add(new VideoPainter(video.frames(), video.name(), box, video.frameWidth(),
                        video.frameHeight()));
                boxes.add(box);
                extents.add(box); // clipped to its box
            }
        }
    }

    private static byte[] read(PictureLayer picture) {
        try {
            return Files.readAllBytes(picture.file());
        } catch (IOException e) {
            throw new SceneException(picture.name(), "the picture's file cannot be read");
        }
    }

    public Scene scene() {
        return scene;
    }

    private static double distance(io.pmedia.graphics.motion.TextAnimation animation) {
        return animation == null ? 0 : animation.distance();
    }

    /** The laid-out text of layer {@code index} (null for a shape): its size, lines, unresolved glyphs. */
    public TextBlock text(int index) {
        return painters.get(index) instanceof TextPainter painter ? painter.block() : null;
    }

    /**
     * What layer {@code index} may draw on before its keyframes move it: its box and around it its shadow, stroke,
     * line boxes and animation's reach (a fade composites no more than this).
     */
    public Rect extent(int index) {
        return extents.get(index);
    }

    /** Where layer {@code index} is laid out, before its keyframes move it. */
    public Rect box(int index) {
        return boxes.get(index);
    }

    /**
     * Frame {@code index} as {@link Scene#frameWidth()} x {@link Scene#frameHeight()} x 4 bytes of RGBA, straight
     * alpha: read back as drawn (premultiplied, a copy) and converted where a pixel is partly transparent
     * ({@link Unpremultiply}, the bytes Skia's own conversion gives, which costs about ten times the copy).
     */
    public byte[] render(long index) {
        draw(scene.time(index));
        byte[] frame = bitmap.readPixels(premultiplied, scene.frameWidth() * 4, 0, 0);
        Unpremultiply.inPlace(frame);
        return frame;
    }

    /**
     * What decides the look of frame {@code index}: two frames with equal states are the same picture, so a
     * stream can repeat the bytes of the last one instead of drawing it again.
     */
    public Object state(long index) {
        return states(scene.time(index), true);
    }

    /**
     * The frames of {@code 0} to {@code count - 1} that may differ from the frame before them (frame 0 always), with
     * every frame of {@code kept} besides, in order: every other frame is the same picture as the one before it, so a
     * stream may carry these alone, each shown until the next. Decided from the layers' states alone: nothing is
     * drawn, and no video is read (a video's state is then the frame its clock reaches, so a video that ended early
     * keeps its frames listed).
     */
    public long[] changes(long count, LongPredicate kept) {
        LongStream.Builder changes = LongStream.builder();
        List<Object> last = null;
        for (long i = 0; i < count; i++) {
            List<Object> states = states(scene.time(i), false);
            if (last == null || !states.equals(last) || kept.test(i)) {
                changes.add(i);
            }
            last = states;
        }
        return changes.build().toArray();
    }

    /**
     * Each layer's state at {@code time}: FALSE when hidden, else its opacity, transform and units' motions; a video's
     * frame read on to it when {@code read}, else the frame its clock reaches.
     */
    private List<Object> states(double time, boolean read) {
        List<Object> states = new ArrayList<>();
        for (int i = 0; i < scene.layers().size(); i++) {
            Layer layer = scene.layers().get(i);
            if (!layer.timing().shows(time)) {
                states.add(Boolean.FALSE);
                continue;
            }
            List<Object> state = new ArrayList<>();
            state.add(layer.timing().opacity(time));
            state.add(layer.keyframes().at(time - layer.timing().start()));
            if (painters.get(i) instanceof TextPainter painter) {
                state.add(Arrays.asList(painter.motions(time - layer.timing().start(), layer.timing().end() - time)));
            } else if (painters.get(i) instanceof Lottie lottie) {
                state.add(lottie.frame(time));
            } else if (painters.get(i) instanceof VideoPainter video) {
                // read on to the frame that shows now (frames are drawn in order): its index decides the picture
                long frame = ((VideoLayer) layer).frameAt(time, scene.fps());
                state.add(read ? video.advance(frame) : frame);
            }
            states.add(state);
        }
        return states;
    }

    /** Draws the scene at {@code time} seconds on the renderer's raster. */
    void draw(double time) {
        List<Object> states = states(time, true);
        int unchanged = 0;
        while (previous != null && unchanged < states.size()
                && Objects.equals(states.get(unchanged), previous.get(unchanged))) {
            unchanged++;
        }
        previous = states;
        int from = 0;
        if (below != null && Objects.equals(states.subList(0, belowCount), belowStates)) {
            // copied over the whole raster (a blend would cost several times the copy), so nothing to clear first
            canvas.drawImage(below, 0, 0, copy);
            from = belowCount;
        } else {
            canvas.clear(0);
            if (below != null) {
                below.close();
                below = null;
            }
        }
        // the layers that did not change since the last frame will likely not change in the next: keep them drawn
        int keep = unchanged > from && states.subList(0, unchanged).stream().anyMatch(st -> st != Boolean.FALSE)
                ? unchanged
                : -1;
        for (int i = from; i < scene.layers().size(); i++) {
            drawLayer(i, time);
            if (i + 1 == keep) {
                if (below != null) {
                    below.close();
                }
                below = Image.Companion.makeFromBitmap(bitmap);
                belowCount = keep;
                belowStates = List.copyOf(states.subList(0, keep));
            }
        }
    }

    private void drawLayer(int i, double time) {
        Layer layer = scene.layers().get(i);
        if (!layer.timing().shows(time)) {
            return;
        }
        double local = time - layer.timing().start();
        Transform transform = layer.keyframes().at(local);
        double opacity = layer.timing().opacity(time) * transform.opacity();
        if (opacity <= 0) {
            return;
        }
        Rect box = boxes.get(i);
        int count = canvas.save();
        int band = scene.band(i);
        if (!scene.windows().isEmpty()) {
            // the band's window alone, moved to its place in the frame
            Scene.Window window = scene.windows().get(band);
            canvas.clipRect(Rect.Companion.makeXYWH(0, window.top(), window.width(), window.height()));
            canvas.translate(-window.x(), window.top() - band * scene.bandHeight() - window.y());
        } else if (scene.bandHeight() < scene.height()) {
            int top = band * scene.bandHeight();
            canvas.clipRect(Rect.Companion.makeLTRB(0, top, scene.width(), top + scene.bandHeight()));
        }
        float anchorX = (float) (box.getLeft() + transform.anchorX() * box.getWidth());
        float anchorY = (float) (box.getTop() + transform.anchorY() * box.getHeight());
        canvas.translate((float) transform.x() + anchorX, (float) transform.y() + anchorY);
        canvas.rotate((float) transform.rotation());
        canvas.scale((float) transform.scale(), (float) transform.scale());
        canvas.translate(-anchorX, -anchorY);
        if (opacity < 1) {
            Paint alpha = new Paint();
            alpha.setAlphaf((float) opacity);
            canvas.saveLayer(extents.get(i), alpha); // bounded: the layer, not the frame, is composited
        }
        Object painter = painters.get(i);
        if (painter instanceof TextPainter text) {
            TextLayer textLayer = (TextLayer) layer;
            canvas.translate(box.getLeft(), box.getTop());
            if (textLayer.box() != null) {
                paintLineBoxes(text.block(), textLayer);
            }
            text.paint(canvas, text.motions(local, layer.timing().end() - time));
        } else if (painter instanceof ShapeLayer shape) {
            ShapePainter.paint(canvas, shape.geometry(), shape.fill(), shape.stroke(), shape.shadow());
        } else if (painter instanceof Lottie lottie) {
            lottie.paint(canvas, box, time);
        } else if (painter instanceof PicturePainter picture) {
            picture.paint(canvas);
        } else if (painter instanceof VideoPainter video) {
            video.paint(canvas);
        }
        canvas.restoreToCount(count);
    }

    private void paintLineBoxes(TextBlock block, TextLayer layer) {
        float border = (float) Math.max(2, block.size() / 4);
        for (Rect line : block.lineBoxes()) {
            Rect box = Rect.Companion.makeLTRB(line.getLeft() - border, line.getTop() - border,
                    line.getRight() + border, line.getBottom() + border);
            canvas.drawRect(box, Paints.fill(layer.box(), box.getLeft(), box.getTop(), box.getWidth(),
                    box.getHeight()));
        }
    }

    /** A Lottie layer and its animation, built once for the renderer. */
    private record Lottie(LottieLayer layer, LottiePainter painter) {

        /** The file's frame at {@code time}: what decides the picture. */
        double frame(double time) {
            return layer.frameAt(time, painter.inPoint(), painter.outPoint(), painter.frameRate());
        }

        /** The frame at {@code time} fitted in {@code box} ({@link io.pmedia.graphics.draw.Fit}), clipped to it. */
        void paint(Canvas canvas, Rect box, double time) {
            Rect placed = layer.fit().place(box, painter.width(), painter.height());
            canvas.clipRect(box, true);
            canvas.translate(placed.getLeft(), placed.getTop());
            canvas.scale(placed.getWidth() / painter.width(), placed.getHeight() / painter.height());
            painter.paint(canvas, frame(time));
        }
    }

    private void closePainters() {
        for (Object painter : painters) {
            if (painter instanceof Lottie lottie) {
                lottie.painter().close();
            } else if (painter instanceof PicturePainter picture) {
                picture.close();
            } else if (painter instanceof VideoPainter video) {
                video.close();
            }
        }
    }

    @Override
    public void close() {
        closePainters();
        if (below != null) {
            below.close();
        }
        copy.close();
        canvas.close();
        bitmap.close();
    }
}
