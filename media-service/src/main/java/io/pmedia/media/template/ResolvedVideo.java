package io.pmedia.media.template;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A template with one customer's data applied: the exact segments, texts and asset URLs to render. Everything the
 * vendor influenced is here as data; the compiler decides how it reaches FFmpeg.
 */
public record ResolvedVideo(TemplateDefinition.Canvas canvas, List<Segment> segments, TemplateDefinition.Audio audio) {

    public double durationSeconds() {
        return segments.stream().mapToDouble(Segment::duration).sum();
    }

    /** Every asset URL to fetch, once each, with its kind. */
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
        return assets;
    }

    public record Segment(String id, double duration, Background background, List<Layer> layers) {
    }

    /** A colour, or an image/video asset filling the canvas. */
    public record Background(String color, String url, AssetKind kind) {
    }

    public sealed interface Layer permits Text, Picture {
        double start();

        double end();

        double fade();
    }

    /** Text with its placeholders already replaced; positions are pixels or the words the template allows. */
    public record Text(String text, String font, int size, String color, String boxColor, String x, String y,
            double start, double end, double fade) implements Layer {
    }

    /** An image, icon or video placed in a box. */
    public record Picture(String url, AssetKind kind, String x, String y, int width, int height, String fit,
            double start, double end, double fade) implements Layer {
    }
}
