package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A template with one customer's data applied: the exact segments in order, their lengths in whole frames, the
 * texts with placeholders replaced, and the asset URLs to fetch. Everything a vendor influenced is here as plain
 * data; the render engine decides how it reaches FFmpeg. Built by {@link TemplateResolver}.
 */
public record ResolvedVideo(TemplateDefinition.Canvas canvas, List<Segment> segments, Audio audio) {

    public ResolvedVideo {
        segments = List.copyOf(segments);
    }

    /** Frames of the whole video. */
    public int frames() {
        return segments.stream().mapToInt(Segment::frames).sum();
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
     * and out to black over {@code fadeIn} / {@code fadeOut} seconds.
     */
    public record Segment(String id, int frames, double duration, Background background, double fadeIn,
            double fadeOut, List<Layer> layers) {

        public Segment {
            layers = List.copyOf(layers);
        }
    }

    /** A colour, or an image or video covering the canvas ({@code url} and {@code kind} set). */
    public record Background(String color, String url, AssetKind kind) {
    }

    /** Something drawn over the background from {@code start} to {@code end} seconds into its segment. */
    public sealed interface Layer permits Text, Picture {
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
    public record Text(String text, TextFont font, int size, String color, String boxColor, String shadowColor,
            String x, String y, String align, Integer maxWidth, int maxLines, int minSize, double lineHeight,
            double start, double end, double fadeIn, double fadeOut) implements Layer {
    }

    /**
     * An image, icon or video fitted ({@code contain}, {@code cover} or {@code stretch}) into the box at {@code x},
     * {@code y} (pixels or {@code center}) of {@code width} x {@code height} pixels.
     */
    public record Picture(String url, AssetKind kind, String x, String y, int width, int height, PictureFit fit,
            double start, double end, double fadeIn, double fadeOut) implements Layer {
    }

    /**
     * The sound track: {@code silence}, a {@code tone} of {@code frequency} Hz, or a {@code track} from {@code url};
     * {@code volume} from 0 to 1, faded out over the last {@code fadeOut} seconds.
     */
    public record Audio(AudioType type, double frequency, double volume, String url, double fadeOut) {

        public static Audio silence() {
            return new Audio(AudioType.SILENCE, 0, 0, null, 0);
        }
    }
}
