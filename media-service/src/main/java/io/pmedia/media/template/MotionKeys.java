package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.draw.Shadow;
import io.pmedia.graphics.draw.Stroke;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.Keyframe;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.motion.TextAnimation;

/**
 * The template keys of motion and shapes (docs/templates.md): {@code animate} ({@code in}, {@code out}),
 * {@code keyframes}, and a shape layer's {@code shape}, {@code fill}, {@code stroke}, {@code shadow}, read from the
 * template's JSON into the graphics engine's objects. The validator reads them to find what is wrong (every
 * problem a {@link SceneException} naming its JSON path); the render reads them again, already valid. Unknown keys
 * inside them are refused too.
 */
public final class MotionKeys {

    /** The longest text animation of one unit, and the widest stagger, in seconds. */
    static final double MAX_ANIMATION = 10;
    private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?");
    private static final Set<String> ANIMATION_KEYS = Set.of("type", "by", "duration", "stagger", "easing", "from",
            "distance");
    private static final Set<String> KEYFRAME_KEYS = Set.of("time", "x", "y", "scale", "rotation", "opacity",
            "anchor", "easing");
    private static final Map<String, Set<String>> FILL_KEYS = Map.of("linear", Set.of("type", "from", "to", "colors",
            "stops"), "radial", Set.of("type", "center", "radius", "colors", "stops"));

    private MotionKeys() {
    }

    /** Checks that {@code animate} is an object of {@code in} and {@code out} only. */
    public static void animate(JsonNode animate, String path) {
        if (animate == null || animate.isNull()) {
            return;
        }
        if (!animate.isObject()) {
            throw new SceneException(path, "an object with \"in\" and/or \"out\"");
        }
        animate.fieldNames().forEachRemaining(key -> {
            if (!key.equals("in") && !key.equals("out")) {
                throw new SceneException(path + "." + key, "unknown key (in, out)");
            }
        });
    }

    /** {@code animate.in} or {@code animate.out}; null when absent. */
    public static TextAnimation animation(JsonNode animate, String which, String path) {
        if (animate == null || animate.isNull()) {
            return null;
        }
        JsonNode node = animate.isObject() ? animate.get(which) : null;
        String at = path + "." + which;
        if (node == null || node.isNull()) {
            return null;
        }
        object(node, at, ANIMATION_KEYS);
        if (!node.hasNonNull("type")) {
            throw new SceneException(at + ".type", "required: one of fade, slide, scale, pop, typewriter, blur");
        }
        TextAnimation.Effect effect = TextAnimation.Effect.parse(node.get("type").asText(), at + ".type");
        TextAnimation.Unit unit = TextAnimation.Unit.parse(text(node, "by", at), at + ".by");
        double duration = number(node, "duration", at, 0.5, 0, MAX_ANIMATION);
        double stagger = number(node, "stagger", at, unit == TextAnimation.Unit.ALL ? 0 : 0.05, 0, MAX_ANIMATION);
        Easing easing = Easing.parse(text(node, "easing", at) == null ? "ease-out" : text(node, "easing", at),
                at + ".easing");
        TextAnimation.Direction from = TextAnimation.Direction.parse(text(node, "from", at), at + ".from");
        double distance = number(node, "distance", at, 0, 0, 4000);
        return new TextAnimation(effect, unit, duration, stagger, easing, from, distance);
    }

    /** A layer's keyframes (times in seconds into the layer, 0 to {@code duration}); empty when absent. */
    public static Keyframes keyframes(JsonNode node, double duration, String path) {
        if (node == null || node.isNull()) {
            return Keyframes.NONE;
        }
        if (!node.isArray() || node.size() < 1 || node.size() > 50) {
            throw new SceneException(path, "a list of 1 to 50 keyframes");
        }
        List<Keyframe> frames = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode frame = node.get(i);
            String at = path + "[" + i + "]";
            object(frame, at, KEYFRAME_KEYS);
            if (!frame.has("time")) {
                throw new SceneException(at + ".time", "required: seconds into the layer");
            }
            Double anchorX = null;
            Double anchorY = null;
            if (frame.has("anchor")) {
                JsonNode anchor = frame.get("anchor");
                if (!anchor.isArray() || anchor.size() != 2 || !anchor.get(0).isNumber()
                        || !anchor.get(1).isNumber()) {
                    throw new SceneException(at + ".anchor", "[x, y]: fractions of the layer's box (0.5: middle)");
                }
                anchorX = anchor.get(0).asDouble();
                anchorY = anchor.get(1).asDouble();
            }
            frames.add(new Keyframe(number(frame, "time", at, 0, -1e9, 1e9), optional(frame, "x", at, -10000, 10000),
                    optional(frame, "y", at, -10000, 10000), optional(frame, "scale", at, 0, 100),
                    optional(frame, "rotation", at, -36000, 36000), optional(frame, "opacity", at, 0, 1), anchorX,
                    anchorY, Easing.parse(text(frame, "easing", at), at + ".easing")));
        }
        return Keyframes.of(frames, duration, path);
    }

    /**
     * Keyframes as written for the layer's authored time, their times stretched as the layer's own timing is (a
     * {@code frame_segments} duration stretches a segment's layer timings in proportion), so that they stay inside
     * their layer; the same node when nothing stretches.
     */
    public static JsonNode stretched(JsonNode keyframes, double stretch) {
        if (keyframes == null || !keyframes.isArray() || stretch == 1) {
            return keyframes;
        }
        JsonNode copy = keyframes.deepCopy();
        for (JsonNode frame : copy) {
            if (frame instanceof ObjectNode keyframe && frame.path("time").isNumber()) {
                keyframe.put("time", frame.get("time").asDouble() * stretch);
            }
        }
        return copy;
    }

    /**
     * The outline of a shape layer: {@code shape} one of rect, rounded-rect, ellipse, line, path, in the box
     * {@code x}, {@code y}, {@code width}, {@code height}.
     */
    public static Geometry geometry(String shape, double x, double y, double width, double height, Double radius,
            String pathData, String path) {
        if (shape == null) {
            throw new SceneException(path + ".shape", "required: one of rect, rounded-rect, ellipse, line, path");
        }
        if (!"path".equals(shape) && pathData != null) {
            throw new SceneException(path + ".path", "only a shape of type path takes path data");
        }
        if (!"rounded-rect".equals(shape) && radius != null) {
            throw new SceneException(path + ".radius", "only a rounded-rect takes a radius");
        }
        return switch (shape) {
            case "rect" -> new Geometry.Rect(x, y, width, height);
            case "rounded-rect" -> {
                if (radius == null || radius < 0 || radius > 2000) {
                    throw new SceneException(path + ".radius", "required for a rounded-rect: 0 to 2000 pixels");
                }
                yield new Geometry.RoundedRect(x, y, width, height, radius);
            }
            case "ellipse" -> new Geometry.Ellipse(x, y, width, height);
            case "line" -> new Geometry.Line(x, y, width, height);
            case "path" -> Geometry.path(x, y, width, height, pathData, path + ".path");
            default -> throw new SceneException(path + ".shape",
                    "unknown shape '" + shape + "': one of rect, rounded-rect, ellipse, line, path");
        };
    }

    /** {@code "#rrggbb"}, or a gradient object; null when absent. */
    public static Fill fill(JsonNode node, String path) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            return new Fill.Solid(color(node.asText(), path));
        }
        if (!node.isObject() || !node.hasNonNull("type") || !FILL_KEYS.containsKey(node.get("type").asText())) {
            throw new SceneException(path, "a colour \"#rrggbb\", or {\"type\": \"linear\" or \"radial\", ...}");
        }
        String type = node.get("type").asText();
        object(node, path, FILL_KEYS.get(type));
        List<Fill.Stop> stops = stops(node, path);
        if (type.equals("linear")) {
            double[] from = point(node, "from", path, new double[]{0, 0});
            double[] to = point(node, "to", path, new double[]{1, 0});
            return new Fill.Linear(from[0], from[1], to[0], to[1], stops);
        }
        double[] center = point(node, "center", path, new double[]{0.5, 0.5});
        return new Fill.Radial(center[0], center[1], number(node, "radius", path, 0.5, 0.01, 10), stops);
    }

    public static Stroke stroke(JsonNode node, String path) {
        if (node == null || node.isNull()) {
            return null;
        }
        object(node, path, Set.of("color", "width"));
        return new Stroke(color(text(node, "color", path) == null ? "#ffffff" : text(node, "color", path),
                path + ".color"), number(node, "width", path, 2, 0.5, 200));
    }

    public static Shadow shadow(JsonNode node, String path) {
        if (node == null || node.isNull()) {
            return null;
        }
        object(node, path, Set.of("color", "x", "y", "blur"));
        return new Shadow(color(text(node, "color", path) == null ? "#00000099" : text(node, "color", path),
                path + ".color"), number(node, "x", path, 4, -200, 200), number(node, "y", path, 4, -200, 200),
                number(node, "blur", path, 8, 0, 200));
    }

    /** {@code #rrggbb} or {@code #rrggbbaa} as ARGB. */
    public static int color(String hex, String path) {
        if (hex == null || !COLOR.matcher(hex).matches()) {
            throw new SceneException(path, "a colour \"#rrggbb\" or \"#rrggbbaa\"");
        }
        int rgb = Integer.parseInt(hex.substring(1, 7), 16);
        int alpha = hex.length() == 9 ? Integer.parseInt(hex.substring(7, 9), 16) : 0xff;
        return alpha << 24 | rgb;
    }

    private static List<Fill.Stop> stops(JsonNode node, String path) {
        JsonNode colors = node.get("colors");
        if (colors == null || !colors.isArray() || colors.size() < 2 || colors.size() > 16) {
            throw new SceneException(path + ".colors", "2 to 16 colours");
        }
        JsonNode offsets = node.get("stops");
        if (offsets != null && (!offsets.isArray() || offsets.size() != colors.size())) {
            throw new SceneException(path + ".stops", "one offset (0 to 1) per colour");
        }
        List<Fill.Stop> stops = new ArrayList<>();
        double last = 0;
        for (int i = 0; i < colors.size(); i++) {
            double offset = (double) i / (colors.size() - 1);
            if (offsets != null) {
                JsonNode value = offsets.get(i);
                if (!value.isNumber() || value.asDouble() < last || value.asDouble() > 1) {
                    throw new SceneException(path + ".stops[" + i + "]", "offsets rise from 0 to 1");
                }
                offset = value.asDouble();
                last = offset;
            }
            stops.add(new Fill.Stop(offset, color(colors.get(i).asText(null), path + ".colors[" + i + "]")));
        }
        return stops;
    }

    private static double[] point(JsonNode node, String key, String path, double[] fallback) {
        JsonNode value = node.get(key);
        if (value == null) {
            return fallback;
        }
        if (!value.isArray() || value.size() != 2 || !value.get(0).isNumber() || !value.get(1).isNumber()) {
            throw new SceneException(path + "." + key, "[x, y]: fractions of the box (0 to 1)");
        }
        return new double[]{value.get(0).asDouble(), value.get(1).asDouble()};
    }

    private static void object(JsonNode node, String path, Set<String> keys) {
        if (node == null || !node.isObject()) {
            throw new SceneException(path, "an object");
        }
        node.fieldNames().forEachRemaining(key -> {
            if (!keys.contains(key)) {
                throw new SceneException(path + "." + key, "unknown key (" + String.join(", ", keys.stream()
                        .sorted().toList()) + ")");
            }
        });
    }

    private static String text(JsonNode node, String key, String path) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new SceneException(path + "." + key, "a string");
        }
        return value.asText();
    }

    private static double number(JsonNode node, String key, String path, double fallback, double min, double max) {
        Double value = optional(node, key, path, min, max);
        return value == null ? fallback : value;
    }

    private static Double optional(JsonNode node, String key, String path, double min, double max) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isNumber() || value.asDouble() < min || value.asDouble() > max) {
            throw new SceneException(path + "." + key, "a number from " + plain(min) + " to " + plain(max));
        }
        return value.asDouble();
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
