package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A template with one customer's data applied: the exact segments in order, their lengths in whole frames, the
 * texts with placeholders replaced, and the asset URLs to fetch. Everything a vendor influenced is here as plain
 * data; the render engine decides how it reaches FFmpeg. Built by {@link TemplateResolver}.
 */
public record ResolvedVideo(TemplateDefinition.Canvas canvas, List<Segment> segments, Audio audio,
        List<Output> outputs, boolean burnInCaptions, boolean textCaptions) {

    public ResolvedVideo {
        segments = List.copyOf(segments);
        outputs = List.copyOf(outputs);
    }

    /** One MP4 at the canvas size, no captions drawn. */
    public ResolvedVideo(TemplateDefinition.Canvas canvas, List<Segment> segments, Audio audio) {
        this(canvas, segments, audio, List.of(Output.main()), false, false);
    }

    /** Frames of the whole video: the segments' frames less the frames their transitions overlap. */
    public int frames() {
        int frames = 0;
        for (int k = 0; k < segments.size(); k++) {
            frames += segments.get(k).frames() - (k > 0 ? segments.get(k - 1).transitionFrames() : 0);
        }
        return frames;
    }

    /** The frame at which segment {@code k} starts (a transition starts it while the one before still shows). */
    public int startFrame(int k) {
        int start = 0;
        for (int i = 0; i < k; i++) {
            start += segments.get(i).frames() - segments.get(i).transitionFrames();
        }
        return start;
    }

    /** Seconds into the video at which segment {@code k} starts. */
    public double startSeconds(int k) {
        return (double) startFrame(k) / canvas.fps();
    }

    /** The fonts the texts name that are not built in (registered fonts), once each. */
    public List<String> customFonts() {
        return segments.stream().flatMap(s -> s.layers().stream()).filter(l -> l instanceof Text)
                .map(l -> ((Text) l).font()).filter(f -> TextFont.named(f) == null).distinct().toList();
    }

    /** The motions (Lottie files) the lottie layers name, once each. */
    public List<String> motions() {
        return segments.stream().flatMap(s -> s.layers().stream()).filter(l -> l instanceof Lottie)
                .map(l -> ((Lottie) l).motion()).distinct().toList();
    }

    /** Every speech layer with the second of the video at which it starts and the one at which it is cut. */
    public List<TimedSpeech> speeches() {
        List<TimedSpeech> speeches = new ArrayList<>();
        for (int k = 0; k < segments.size(); k++) {
            double offset = startSeconds(k);
            for (Layer layer : segments.get(k).layers()) {
                if (layer instanceof Speech speech) {
                    speeches.add(new TimedSpeech(k, speech, offset + speech.start(),
                            Math.min(offset + speech.end(), durationSeconds())));
                }
            }
        }
        return speeches;
    }

    /**
     * What a preview of the moment {@code seconds} into the video needs: the segment that shows then, alone
     * (without its transition or sound), and the frame of it to draw.
     */
    public Still stillAt(double seconds) {
        int frame = (int) Math.max(0, Math.min(frames() - 1, Math.floor(seconds * canvas.fps() + 1e-9)));
        int k = 0;
        while (k + 1 < segments.size() && startFrame(k + 1) <= frame) {
            k++;
        }
        Segment segment = segments.get(k);
        int local = Math.max(0, Math.min(segment.frames() - 1, frame - startFrame(k)));
        ResolvedVideo single = new ResolvedVideo(canvas, List.of(segment.withTransition(null)), Audio.silence());
        return new Still(single, local);
    }

    /** One frame of a one-segment video. */
    public record Still(ResolvedVideo video, int frame) {
    }

    /** A speech layer placed on the video's timeline. */
    public record TimedSpeech(int segment, Speech speech, double start, double end) {
    }

    public double durationSeconds() {
        return (double) frames() / canvas.fps();
    }

    /** Every asset URL to fetch, once each, in order of first use, with its kind. */
    public Map<String, AssetKind> assets() {
        Map<String, AssetKind> assets = new LinkedHashMap<>();
        for (Segment segment : segments) {
            if (segment.background().url() != null) {
                assets.putIfAbsent(segment.background().url(), segment.background().kind());
            }
            for (Layer layer : segment.layers()) {
                if (layer instanceof Picture picture) {
                    assets.putIfAbsent(picture.url(), picture.kind());
                } else if (layer instanceof Lottie lottie) {
                    lottie.images().values().forEach(url -> assets.putIfAbsent(url, AssetKind.IMAGE));
                }
            }
        }
        if (audio.url() != null) {
            assets.putIfAbsent(audio.url(), AssetKind.AUDIO);
        }
        return assets;
    }

    /** The URLs of {@link #assets()}. */
    public List<String> assetUrls() {
        return new ArrayList<>(assets().keySet());
    }

    /**
     * One segment: {@code frames} long at the canvas rate ({@code duration} is the same in seconds), fading in from
     * and out to black over {@code fadeIn} / {@code fadeOut} seconds. {@code personal} when its picture depends on
     * the request (a placeholder, a request asset, a speech, a {@code frame_segments} text or asset); a segment that
     * is not can be rendered once and reused. What of it depends on the request, finer: {@code personalLayers} (the
     * indexes in {@code layers} of the layers that show or speak something of the request) and {@code
     * personalBackground}; the chunk cache keeps the frames where none of them shows.
     */
    public record Segment(String id, int frames, double duration, Background background, double fadeIn,
            double fadeOut, List<Layer> layers, Transition transition, boolean personal, List<Integer> personalLayers,
            boolean personalBackground) {

        public Segment {
            layers = List.copyOf(layers);
            personalLayers = List.copyOf(personalLayers);
        }

        /** A segment taken to depend on the request. */
        public Segment(String id, int frames, double duration, Background background, double fadeIn,
                double fadeOut, List<Layer> layers) {
            this(id, frames, duration, background, fadeIn, fadeOut, layers, null, true);
        }

        /** A segment taken to depend on the request. */
        public Segment(String id, int frames, double duration, Background background, double fadeIn,
                double fadeOut, List<Layer> layers, Transition transition) {
            this(id, frames, duration, background, fadeIn, fadeOut, layers, transition, true);
        }

        /** A segment that depends on the request wholly ({@code personal}: every layer and the background) or not. */
        public Segment(String id, int frames, double duration, Background background, double fadeIn,
                double fadeOut, List<Layer> layers, Transition transition, boolean personal) {
            this(id, frames, duration, background, fadeIn, fadeOut, layers, transition, personal,
                    personal ? IntStream.range(0, layers.size()).boxed().toList() : List.of(), personal);
        }

        /** The same segment with another transition. */
        public Segment withTransition(Transition other) {
            return new Segment(id, frames, duration, background, fadeIn, fadeOut, layers, other, personal,
                    personalLayers, personalBackground);
        }

        /**
         * What of this segment is the same for everyone: without the layers and background that depend on the
         * request (the chunk cache's key of frames where they do not show).
         */
        public Segment withoutPersonal() {
            List<Layer> kept = new ArrayList<>();
            for (int j = 0; j < layers.size(); j++) {
                if (!personalLayers.contains(j)) {
                    kept.add(layers.get(j));
                }
            }
            Background shown = personalBackground ? new Background(background.color(), null, null) : background;
            return new Segment(id, frames, duration, shown, fadeIn, fadeOut, kept, transition, false, List.of(),
                    false);
        }

        /** Frames this segment shares with the next one (its transition); 0 without one. */
        public int transitionFrames() {
            return transition == null ? 0 : transition.frames();
        }
    }

    /** An FFmpeg xfade {@code type} into the next segment over {@code frames} frames. */
    public record Transition(String type, int frames) {
    }

    /**
     * One file to produce. {@code height} 0 means the canvas height, {@code fps} 0 the canvas rate, {@code duration}
     * 0 the whole video.
     */
    public record Output(String name, OutputFormat format, int height, int fps, double duration) {

        public static Output main() {
            return new Output("main", OutputFormat.MP4, 0, 0, 0);
        }

        public String fileName() {
            return name + "." + format.extension();
        }
    }

    /** A colour, or an image or video covering the canvas ({@code url} and {@code kind} set). */
    public record Background(String color, String url, AssetKind kind) {
    }

    /** Something drawn over the background from {@code start} to {@code end} seconds into its segment. */
    public sealed interface Layer permits Text, Picture, Speech, Shape, Lottie {
        double start();

        double end();

        double fadeIn();

        double fadeOut();
    }

    /**
     * A text, its placeholders already replaced. {@code x} is pixels or {@code left}/{@code center}/{@code right},
     * {@code y} pixels (top of the block) or {@code top}/{@code center}/{@code bottom}; {@code align} is
     * {@code left}, {@code center} or {@code right}; {@code maxWidth} is null for "as wide as the canvas allows".
     */
    public record Text(String text, String font, int size, String color, String boxColor, String shadowColor,
            String x, String y, String align, Integer maxWidth, int maxLines, int minSize, double lineHeight,
            double start, double end, double fadeIn, double fadeOut, JsonNode animate, JsonNode keyframes,
            JsonNode fill, JsonNode boxFill)
            implements
                Layer {

        /** A text that neither animates nor moves. */
        public Text(String text, String font, int size, String color, String boxColor, String shadowColor, String x,
                String y, String align, Integer maxWidth, int maxLines, int minSize, double lineHeight, double start,
                double end, double fadeIn, double fadeOut) {
            this(text, font, size, color, boxColor, shadowColor, x, y, align, maxWidth, maxLines, minSize, lineHeight,
                    start, end, fadeIn, fadeOut, null, null, null, null);
        }
    }

    /**
     * A shape drawn by the graphics engine, as the template wrote it (validated): {@code shape} and its box
     * ({@code x}, {@code y} the top-left corner in pixels), {@code radius} of a rounded-rect, {@code path} data of
     * a path, and the {@code fill}, {@code stroke}, {@code shadow} and {@code keyframes} objects of
     * docs/templates.md, read by {@link MotionKeys} when drawn. Kept as JSON so that the chunk cache's key shows
     * every value.
     */
    public record Shape(String shape, int x, int y, int width, int height, Double radius, String path, JsonNode fill,
            JsonNode stroke, JsonNode shadow, JsonNode keyframes, double start, double end, double fadeIn,
            double fadeOut) implements Layer {
    }

    /**
     * A registered Lottie file ({@code motion}, by name: the rendering vendor's own, else a shared one) fitted into
     * the box at {@code x}, {@code y} (pixels or {@code center}) of {@code width} x {@code height} pixels, played at
     * {@code speed} from the layer's start, looped or holding its last frame, its placeholders filled: {@code texts}
     * by text layer name or slot id (placeholders replaced), {@code colors} by slot id, {@code images} by asset id
     * (the URL of the picture). Drawn by the graphics engine with the texts and shapes.
     */
    public record Lottie(String motion, String x, String y, int width, int height, PictureFit fit, double speed,
            boolean loop, Map<String, String> texts, Map<String, String> colors, Map<String, String> images,
            JsonNode keyframes, double start, double end, double fadeIn, double fadeOut) implements Layer {

        /** The key under which a render's files hold the Lottie file of motion {@code name}, beside the assets. */
        public static String fileKey(String name) {
            return "motion:" + name;
        }
    }

    /**
     * An image, icon or video fitted ({@code contain}, {@code cover} or {@code stretch}) into the box at {@code x},
     * {@code y} (pixels or {@code center}) of {@code width} x {@code height} pixels. A picture (a video too) with
     * {@code keyframes} (the template's JSON, read by {@link MotionKeys} when drawn) is drawn by the graphics engine
     * with the texts and shapes; any other picture is FFmpeg's (its {@code motion} a zoompan). {@code keyframes} is
     * left out of the JSON when absent, so that the chunk cache's keys of pictures without it stay as they were.
     */
    public record Picture(String url, AssetKind kind, String x, String y, int width, int height, PictureFit fit,
            double start, double end, double fadeIn, double fadeOut, Motion motion,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode keyframes) implements Layer {

        /** A picture without keyframes. */
        public Picture(String url, AssetKind kind, String x, String y, int width, int height, PictureFit fit,
                double start, double end, double fadeIn, double fadeOut, Motion motion) {
            this(url, kind, x, y, width, height, fit, start, end, fadeIn, fadeOut, motion, null);
        }

        /** Whether the graphics engine draws it (it follows keyframes), not FFmpeg's overlay. */
        public boolean keyframed() {
            return keyframes != null && !keyframes.isNull();
        }
    }

    /**
     * A text spoken by {@code voice} at {@code rate} words per minute, from {@code start} seconds into its
     * segment, cut at {@code end}; {@code id} names it in captions and messages.
     */
    public record Speech(String id, String text, String voice, int rate, double start, double end)
            implements
                Layer {

        @Override
        public double fadeIn() {
            return 0;
        }

        @Override
        public double fadeOut() {
            return 0;
        }
    }

    /**
     * The sound track: {@code silence}, a {@code tone} of {@code frequency} Hz, or a {@code track} from {@code url};
     * {@code volume} from 0 to 1, faded in over the first {@code fadeIn} and out over the last {@code fadeOut} seconds, and
     * lowered to {@code duck} times its volume while speech plays.
     */
    public record Audio(AudioType type, double frequency, double volume, String url, double fadeIn, double fadeOut,
            double duck) {

        public Audio(AudioType type, double frequency, double volume, String url, double fadeOut) {
            this(type, frequency, volume, url, 0, fadeOut, 1);
        }

        public static Audio silence() {
            return new Audio(AudioType.SILENCE, 0, 0, null, 0);
        }
    }
}
