package io.pmedia.media.render.graphics;

import static io.pmedia.media.render.ffmpeg.FilterGraph.number;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.pmedia.common.error.Messages;
import io.pmedia.graphics.Layer;
import io.pmedia.graphics.LottieLayer;
import io.pmedia.graphics.PictureLayer;
import io.pmedia.graphics.Scene;
import io.pmedia.graphics.ShapeLayer;
import io.pmedia.graphics.TextLayer;
import io.pmedia.graphics.Timing;
import io.pmedia.graphics.VideoLayer;
import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.draw.PictureFile;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.lottie.LottieException;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.graphics.text.TextStyle;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.ffmpeg.FilterGraph;
import io.pmedia.media.render.ffmpeg.GraphicsInput;
import io.pmedia.media.render.speech.Captions;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.MotionKeys;
import io.pmedia.media.template.PictureFit;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.TextFont;

/**
 * The text, shape and lottie layers of a render, its keyframed pictures and videos and its burned-in captions, drawn by the graphics engine
 * (platform-graphics) instead of drawtext: text shaped in every script with the Noto fallback chain. All of a
 * command's drawn layers are one raw RGBA input on FFmpeg's standard input, its frames the segments that draw
 * something one after the other; a segment whose drawn layers are interleaved with pictures gets one band of the
 * frame per run of them between pictures, so that a picture above a text stays above it. A frame carries of each band
 * only its window (the strips its runs draw on, {@link DrawnStream#windows}), the windows stacked one under another.
 * Each (segment, run) is cut out of the stream with trim and crop and overlaid where its layers were in the layer
 * order. One instance per command.
 */
public final class EngineText {

    /** The longest URL as a vendor would recognise it in a message (as FFmpeg's messages show it). */
    public static final int SHOWN = 100;
    /** Margins of texts placed at an edge, as parts of the canvas width and height. */
    static final double MARGIN_X = 0.06;
    static final double MARGIN_Y = 0.08;
    /** The most a keyframed video is decoded larger than its box, and its largest decoded side. */
    static final double VIDEO_ZOOM = 2;
    static final int VIDEO_SIDE = 4096;

    private final Fonts fonts;
    private final TemplateDefinition.Canvas canvas;
    private final int fps;
    private final List<Layer> layers = new ArrayList<>();
    private final List<Integer> bands = new ArrayList<>();
    /** The runs' and captions' cuts of the stream, the frames it carries and the strips. */
    private final DrawnStream stream = new DrawnStream();
    private final Map<String, Path> fontFiles = new LinkedHashMap<>();
    private int streamFrames;
    private int maxBands = 1;
    /** Where the current segment's frames start in the stream, and how many it has there. */
    private int segmentStart = -1;
    private int segmentFrames;
    private double segmentBase;

    /** The render's files by URL (and its Lottie files by {@link ResolvedVideo.Lottie#fileKey}). */
    private final Map<String, Path> files;
    private final VideoDecoding videos;

    public EngineText(Fonts fonts, TemplateDefinition.Canvas canvas, Map<String, Path> files, VideoDecoding videos) {
        this.fonts = fonts;
        this.files = files;
        this.videos = videos;
        this.canvas = canvas;
        this.fps = canvas.fps();
    }

    /**
     * Starts segment {@code k} of the graph: {@code frames} frames from its frame {@code offset} on (a window of the
     * chunk cache starts later than 0).
     */
    public void segment(String id, int frames, int offset) {
        segmentId = id;
        segmentStart = -1;
        segmentFrames = frames;
        segmentBase = -(double) offset / fps;
        this.offset = offset;
    }

    private int offset;
    private String segmentId;

    /**
     * Adds a run of the layers the engine draws (texts, shapes, lottie layers, keyframed pictures and videos) of the current
     * segment (band {@code band}: its place among the segment's runs); returns the filter chain that overlays them on
     * the label {@code under}, or null when none shows.
     */
    public String run(int band, List<ResolvedVideo.Layer> drawn, String label) {
        List<ResolvedVideo.Layer> shown = drawn.stream()
                .filter(l -> !(l instanceof ResolvedVideo.Text text) || !text.text().isBlank()).toList();
        if (shown.isEmpty()) {
            return null;
        }
        if (segmentStart < 0) {
            segmentStart = streamFrames;
            streamFrames += segmentFrames;
        }
        double base = (double) segmentStart / fps + segmentBase;
        int firstLayer = layers.size();
        for (ResolvedVideo.Layer layer : shown) {
            if (layer instanceof ResolvedVideo.Text text) {
                layers.add(layer(text, base, band));
                fontFiles.computeIfAbsent(text.font(), fonts::file);
            } else if (layer instanceof ResolvedVideo.Lottie lottie) {
                layers.add(lottie(lottie, base, band));
            } else if (layer instanceof ResolvedVideo.Picture video && video.kind() == AssetKind.VIDEO) {
                layers.add(video(video, base, band));
            } else if (layer instanceof ResolvedVideo.Picture picture) {
                layers.add(picture(picture, base, band));
            } else {
                layers.add(shape((ResolvedVideo.Shape) layer, base, band));
            }
            bands.add(band);
        }
        maxBands = Math.max(maxBands, band + 1);
        stream.run(segmentStart, segmentStart + segmentFrames, offset, band, firstLayer, layers.size(), label);
        return label;
    }

    /**
     * Burned-in captions: each cue drawn by the engine once, as one frame of the stream (and one empty frame where no
     * cue shows), the strip of the canvas they occupy cut out and timed by {@code setpts} so that each frame starts
     * at its cue; overlaid on the whole picture, the last frame holds until the next one (the overlay's frame sync),
     * which is how a cue stays shown for its time without a frame per video frame on the pipe. Laid out as
     * templates.md says: at most {@value Captions#CUE_LINES} lines at the bottom, shrunk when they do not fit, in a
     * dark box, shaped in every script with the fallback chain like any text.
     *
     * @return the label of the caption strip (overlay it at {@link #captionTop()}), or null when no cue shows
     */
    public String captions(List<Cue> cues, String label) {
        List<Cue> shown = Captions.oneAtATime(cues).stream().filter(cue -> !cue.text().isBlank()).toList();
        if (shown.isEmpty()) {
            return null;
        }
        int size = Math.max(12, canvas.height() / 18);
        int margin = (int) Math.round(canvas.height() * MARGIN_Y);
        int width = (int) Math.round(canvas.width() * (1 - 2 * MARGIN_X));
        TextStyle style = new TextStyle(TextFont.DEFAULT.fontName(), size, 8, Captions.CUE_LINES,
                TemplateResolver.DEFAULT_LINE_HEIGHT, 0xffffffff, 0);
        fontFiles.computeIfAbsent(TextFont.DEFAULT.fontName(), fonts::file);
        Fill box = new Fill.Solid(0x99000000);
        // the states: nothing before the first cue and between cues, each cue while it shows, nothing after
        List<Double> starts = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        double end = 0;
        for (Cue cue : shown) {
            if (starts.isEmpty() || cue.start() > end) {
                starts.add(starts.isEmpty() ? 0 : end);
                texts.add(null);
            }
            starts.add(cue.start());
            texts.add(cue.text());
            end = cue.end();
        }
        starts.add(end);
        texts.add(null);
        int first = streamFrames;
        streamFrames += starts.size();
        for (int k = 0; k < starts.size(); k++) {
            if (texts.get(k) != null) {
                double at = (double) (first + k) / fps;
                layers.add(new TextLayer(new Timing(at - 0.5 / fps, at + 0.5 / fps, 0, 0), texts.get(k), style,
                        canvas.width() / 2.0, TextLayer.Align.CENTER, canvas.height() - margin,
                        TextLayer.Anchor.BOTTOM, width, null, box, null, null, null));
                bands.add(0);
            }
        }
        String times = startOf(starts, 0, starts.size());
        int top = captionTop();
        stream.captions(first, streamFrames, FilterGraph.value(times + "/TB"), top, canvas.width(), canvas.height(),
                label);
        return label;
    }

    /**
     * The start of frame {@code N} among {@code starts[lo, hi)} as an FFmpeg expression: a balanced search, so that
     * its nesting grows with the logarithm of the number of cues (FFmpeg's expression parser refuses a nesting of 100,
     * which a chain of one {@code if} per cue reaches at about 50 cues).
     */
    static String startOf(List<Double> starts, int lo, int hi) {
        if (hi - lo == 1) {
            return number(starts.get(lo));
        }
        int mid = (lo + hi) >>> 1;
        return "if(lt(N," + mid + ")," + startOf(starts, lo, mid) + "," + startOf(starts, mid, hi) + ")";
    }

    /** Where the caption strip starts: the lower third of the canvas (two lines at their size and the margin). */
    public int captionTop() {
        return canvas.height() - canvas.height() / 3 / 2 * 2;
    }

    public boolean isEmpty() {
        return stream.isEmpty();
    }

    /**
     * The chain splitting the input {@code input} into every run's branch (each ends in its label), once every run and
     * the captions were added: the stream carries only the frames {@link #plan} keeps, and each branch times them.
     */
    public String chain(int input) {
        stream.plan(scene(), fontFiles, streamFrames);
        List<String> branches = stream.branches(fps);
        StringBuilder chain = new StringBuilder("[").append(input).append(":v]");
        if (branches.size() == 1) {
            return chain.append(branches.get(0)).toString();
        }
        chain.append("split=").append(branches.size());
        for (int i = 0; i < branches.size(); i++) {
            chain.append("[gs").append(i).append(']');
        }
        for (int i = 0; i < branches.size(); i++) {
            chain.append(";[gs").append(i).append(']').append(branches.get(i));
        }
        return chain.toString();
    }

    /**
     * The options of the raw input, before its {@code -i pipe:0}, once every run and the captions were added: its
     * frames carry each band's window ({@link DrawnStream#windows}).
     */
    public List<String> inputOptions() {
        Scene written = written();
        return List.of("-f", "rawvideo", "-pix_fmt", "rgba", "-s",
                written.frameWidth() + "x" + written.frameHeight(), "-framerate", Integer.toString(fps));
    }

    public GraphicsInput input() {
        Scene written = written();
        return new GraphicsInput(written, stream.frames(), fontFiles);
    }

    /** The scene as the stream carries it, each band's window alone (planned first, once). */
    private Scene written() {
        Scene scene = scene();
        stream.plan(scene, fontFiles, streamFrames);
        return scene.windowed(stream.windows());
    }

    private Scene scene() {
        return new Scene(canvas.width(), canvas.height() * maxBands, fps, layers, canvas.height(), bands);
    }

    /**
     * The options that place the branch {@code label} on the picture, before the overlay's own: filled in by
     * {@link #placed} once the graph is planned (a run's strip is known when its layers are laid out).
     */
    public static String at(String label) {
        return DrawnStream.at(label);
    }

    /** {@code graph} with each run's {@link #at} replaced by where its strip goes. Call after {@link #chain}. */
    public String placed(String graph) {
        return stream.placed(graph);
    }

    /** The text as drawtext placed it (TextDrawing): the same anchors, margins and widths. */
    private TextLayer layer(ResolvedVideo.Text text, double base, int band) {
        int width = canvas.width();
        int height = canvas.height();
        int marginX = (int) Math.round(width * MARGIN_X);
        int marginY = (int) Math.round(height * MARGIN_Y);
        int anchor = switch (text.x()) {
            case "left" -> marginX;
            case "center" -> width / 2;
            case "right" -> width - marginX;
            default -> Integer.parseInt(text.x());
        };
        int available = switch (text.align()) {
            case "left" -> width - marginX - anchor;
            case "right" -> anchor - marginX;
            default -> 2 * Math.min(anchor, width - anchor) - 2 * marginX;
        };
        if (available < Math.min(width - 2 * marginX, 2 * text.size())) {
            available = width - 2 * marginX;
        }
        int maxWidth = text.maxWidth() != null ? text.maxWidth() : available;
        TextLayer.Align align = switch (text.align()) {
            case "left" -> TextLayer.Align.LEFT;
            case "right" -> TextLayer.Align.RIGHT;
            default -> TextLayer.Align.CENTER;
        };
        int top = band * height;
        double y;
        TextLayer.Anchor vertical;
        switch (text.y()) {
            case "top" -> {
                y = top + marginY;
                vertical = TextLayer.Anchor.TOP;
            }
            case "center" -> {
                y = top + height / 2.0;
                vertical = TextLayer.Anchor.MIDDLE;
            }
            case "bottom" -> {
                y = top + height - marginY;
                vertical = TextLayer.Anchor.BOTTOM;
            }
            default -> {
                y = top + Integer.parseInt(text.y());
                vertical = TextLayer.Anchor.TOP;
            }
        }
        TextStyle style = new TextStyle(text.font(), text.size(), text.minSize(), text.maxLines(), text.lineHeight(),
                argb(text.color()), text.shadowColor() == null ? 0 : argb(text.shadowColor()));
        Fill box = text.boxFill() != null
                ? MotionKeys.fill(text.boxFill(), "box-fill")
                : text.boxColor() == null ? null : new Fill.Solid(argb(text.boxColor()));
        Timing timing = new Timing(base + text.start(), base + text.end(), text.fadeIn(), text.fadeOut());
        return new TextLayer(timing, text.text(), style, anchor, align, y, vertical, maxWidth,
                MotionKeys.fill(text.fill(), "fill"), box,
                MotionKeys.animation(text.animate(), "in", "animate"),
                MotionKeys.animation(text.animate(), "out", "animate"),
                MotionKeys.keyframes(text.keyframes(), text.end() - text.start(), "keyframes"));
    }

    /** A shape of the template (validated when it was registered), in its band. */
    private ShapeLayer shape(ResolvedVideo.Shape shape, double base, int band) {
        int top = band * canvas.height();
        Geometry geometry = MotionKeys.geometry(shape.shape(), shape.x(), top + shape.y(), shape.width(),
                shape.height(), shape.radius(), shape.path(), "shape");
        Timing timing = new Timing(base + shape.start(), base + shape.end(), shape.fadeIn(), shape.fadeOut());
        return new ShapeLayer(timing, geometry, MotionKeys.fill(shape.fill(), "fill"),
                MotionKeys.stroke(shape.stroke(), "stroke"), MotionKeys.shadow(shape.shadow(), "shadow"),
                MotionKeys.keyframes(shape.keyframes(), shape.end() - shape.start(), "keyframes"));
    }

    /**
     * A lottie layer: its registered file (fetched before the render, like assets) with the layer's placeholders
     * filled, fitted into its box in its band.
     */
    private LottieLayer lottie(ResolvedVideo.Lottie lottie, double base, int band) {
        Path file = files.get(ResolvedVideo.Lottie.fileKey(lottie.motion()));
        if (file == null) {
            throw new RenderException("motion '" + lottie.motion() + "' is not registered");
        }
        try {
            Map<String, byte[]> images = new LinkedHashMap<>();
            for (Map.Entry<String, String> image : lottie.images().entrySet()) {
                images.put(image.getKey(), Files.readAllBytes(files.get(image.getValue())));
            }
            String json = LottieFile.personalize(Files.readAllBytes(file), lottie.texts(), lottie.colors(), images);
            Timing timing = new Timing(base + lottie.start(), base + lottie.end(), lottie.fadeIn(), lottie.fadeOut());
            return new LottieLayer(timing, json, left(lottie.x(), lottie.width()),
                    band * canvas.height() + top(lottie.y(), lottie.height()), lottie.width(), lottie.height(),
                    fit(lottie.fit()), lottie.speed(), lottie.loop(),
                    MotionKeys.keyframes(lottie.keyframes(), lottie.end() - lottie.start(), "keyframes"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (LottieException e) {
            throw new RenderException("motion '" + lottie.motion() + "' cannot be drawn: " + e.getMessage());
        }
    }

    /**
     * An image or icon with keyframes, drawn by the engine in its band. Its header is read here, before FFmpeg starts:
     * a file of another format or of more than {@link PictureFile#MAX_PIXELS} pixels fails the render, named by its
     * layer; the engine decodes it once when it starts drawing.
     */
    private PictureLayer picture(ResolvedVideo.Picture picture, double base, int band) {
        String name = name(picture);
        Path file = file(picture);
        try {
            PictureFile.check(Files.readAllBytes(file), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SceneException e) {
            throw new RenderException(e.getMessage());
        }
        Timing timing = new Timing(base + picture.start(), base + picture.end(), picture.fadeIn(), picture.fadeOut());
        return new PictureLayer(timing, name, file, left(picture.x(), picture.width()),
                band * canvas.height() + top(picture.y(), picture.height()), picture.width(), picture.height(),
                fit(picture.fit()), MotionKeys.keyframes(picture.keyframes(), picture.end() - picture.start(),
                        "keyframes"));
    }

    /**
     * A video with keyframes, drawn by the engine in its band from frames decoded for it ({@link VideoDecoding}), at
     * its box's size times the largest scale its keyframes reach (at most {@value #VIDEO_ZOOM} times, and never
     * past {@value #VIDEO_SIDE} pixels a side), so that a video keyframed to grow stays sharp without a decode far
     * larger than its box.
     */
    private VideoLayer video(ResolvedVideo.Picture video, double base, int band) {
        var keyframes = MotionKeys.keyframes(video.keyframes(), video.end() - video.start(), "keyframes");
        double zoom = Math.min(Math.min(VIDEO_ZOOM, keyframes.largestScale()),
                (double) VIDEO_SIDE / Math.max(video.width(), video.height()));
        int width = Math.max(2, (int) Math.round(video.width() * Math.max(1, zoom)));
        int height = Math.max(2, (int) Math.round(video.height() * Math.max(1, zoom)));
        Timing timing = new Timing(base + video.start(), base + video.end(), video.fadeIn(), video.fadeOut());
        return new VideoLayer(timing, name(video), videos.frames(video, file(video), width, height),
                left(video.x(), video.width()), band * canvas.height() + top(video.y(), video.height()),
                video.width(), video.height(), width, height, keyframes);
    }

    /** How a message names a picture's layer: its kind, its segment and its asset (as the vendor would know it). */
    private String name(ResolvedVideo.Picture picture) {
        return picture.kind().singular() + " layer of segment '" + segmentId + "' (asset "
                + Messages.abbreviate(picture.url(), SHOWN) + ")";
    }

    private Path file(ResolvedVideo.Picture picture) {
        Path file = files.get(picture.url());
        if (file == null) {
            throw new IllegalArgumentException("no fetched file for asset " + picture.url());
        }
        return file;
    }

    /**
     * The left edge of a box of {@code width} at {@code x} (pixels or {@code center}): centred in whole pixels as
     * FFmpeg centres a picture, so that a lottie layer, a keyframed picture and a picture in one box line up.
     */
    private int left(String x, int width) {
        return "center".equals(x) ? (canvas.width() - width) / 2 : Integer.parseInt(x);
    }

    /** The top of a box of {@code height} at {@code y} (pixels or {@code center}), as {@link #left}. */
    private int top(String y, int height) {
        return "center".equals(y) ? (canvas.height() - height) / 2 : Integer.parseInt(y);
    }

    private static Fit fit(PictureFit fit) {
        return switch (fit) {
            case CONTAIN -> Fit.CONTAIN;
            case COVER -> Fit.COVER;
            case STRETCH -> Fit.FILL;
        };
    }

    /** {@code #rrggbb} or {@code #rrggbbaa} as ARGB. */
    static int argb(String hex) {
        int rgb = Integer.parseInt(hex.substring(1, 7), 16);
        int alpha = hex.length() == 9 ? Integer.parseInt(hex.substring(7, 9), 16) : 0xff;
        return alpha << 24 | rgb;
    }
}
