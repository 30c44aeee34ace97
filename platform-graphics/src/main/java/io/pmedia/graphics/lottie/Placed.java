package io.pmedia.graphics.lottie;

import java.util.ArrayList;
import java.util.List;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ClipMode;
import org.jetbrains.skia.Paint;
import org.jetbrains.skia.Path;
import org.jetbrains.skia.PathBuilder;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.text.FontChain;

/**
 * A layer of the main composition the engine draws itself rather than Skottie: an image (Skiko 0.150.2 exposes no
 * resource provider to Skottie, so Skottie loads no image) or a text Skottie would not shape (its shaper in Skiko
 * has no font fallback and no complex-script shaping: an Arabic or Devanagari name, a CJK name in a Latin font, an
 * emoji came out as boxes). Only layers that stand on their own are placed (no parent, mask, matte, effect, time
 * stretch or skew): their transform's keyframes are evaluated here as Lottie defines them (a cubic Bezier from each
 * keyframe's out tangent to the next one's in tangent, hold keyframes held; a moving position follows a straight
 * line, not its spatial tangents). {@link LottiePainter} draws them between the parts of the animation above and
 * below them.
 */
abstract class Placed implements AutoCloseable {

    /** The layer's index in the main composition's layers. */
    final int index;
    final JsonNode layer;

    Placed(int index, JsonNode layer) {
        this.index = index;
        this.layer = layer;
    }

    /** The layers of the main composition the engine draws itself, top first. */
    static List<Placed> find(JsonNode root, FontChain fonts) {
        List<Placed> placed = new ArrayList<>();
        JsonNode layers = root.path("layers");
        for (int i = 0; i < layers.size(); i++) {
            JsonNode layer = layers.get(i);
            if (unplaceable(layer) != null) {
                continue;
            }
            Placed one = switch (layer.path("ty").asInt(-1)) {
                case 2 -> PlacedImage.of(i, layer, root);
                case 5 -> PlacedText.of(i, layer, root, fonts);
                default -> null;
            };
            if (one != null) {
                placed.add(one);
            }
        }
        return placed;
    }

    static JsonNode asset(JsonNode root, String id) {
        for (JsonNode asset : root.path("assets")) {
            if (asset.path("id").asText().equals(id)) {
                return asset;
            }
        }
        return null;
    }

    /** Why a layer of the main composition cannot be placed, or null when it can. */
    static String unplaceable(JsonNode layer) {
        if (layer.has("parent")) {
            return "it has a parent";
        }
        for (JsonNode mask : layer.path("masksProperties")) {
            if (!mask.path("mode").asText("a").equals("a") || mask.path("inv").asBoolean()
                    || mask.path("o").path("a").asInt() != 0 || mask.path("o").path("k").asDouble(100) != 100
                    || mask.path("x").path("a").asInt() != 0 || mask.path("x").path("k").asDouble(0) != 0
                    || !mask.path("pt").path("k").isContainerNode()) {
                return "it has a mask other than an added, opaque, unexpanded one";
            }
        }
        if (layer.has("tt") || layer.path("td").asInt() != 0) {
            return "it is in a track matte";
        }
        if (layer.path("ef").size() > 0) {
            return "it has effects";
        }
        if (layer.path("sr").asDouble(1) != 1) {
            return "it is time-stretched";
        }
        if (layer.path("ks").path("sk").path("k").asDouble(0) != 0) {
            return "it is skewed";
        }
        return null;
    }

    /** Draws the layer at {@code frame} of the composition, if it shows then, its transform applied. */
    final void paint(Canvas canvas, double frame) {
        if (frame < layer.path("ip").asDouble(Double.NEGATIVE_INFINITY)
                || frame >= layer.path("op").asDouble(Double.POSITIVE_INFINITY)) {
            return;
        }
        double time = frame - layer.path("st").asDouble(0);
        JsonNode ks = layer.path("ks");
        double[] position = ks.path("p").path("s").asBoolean()
                ? new double[]{value(ks.path("p").path("x"), time, 0)[0], value(ks.path("p").path("y"), time, 0)[0]}
                : value(ks.path("p"), time, 0);
        double[] anchor = value(ks.path("a"), time, 0);
        double[] scale = value(ks.path("s"), time, 100);
        double rotation = value(ks.has("r") ? ks.path("r") : ks.path("rz"), time, 0)[0];
        double opacity = value(ks.path("o"), time, 100)[0] / 100;
        if (opacity <= 0) {
            return;
        }
        int count = canvas.save();
        canvas.translate((float) at(position, 0), (float) at(position, 1));
        canvas.rotate((float) rotation);
        canvas.scale((float) at(scale, 0) / 100, (float) (scale.length > 1 ? scale[1] : at(scale, 0)) / 100);
        canvas.translate((float) -at(anchor, 0), (float) -at(anchor, 1));
        if (layer.path("masksProperties").size() > 0) {
            canvas.clipPath(masks(time), ClipMode.INTERSECT, true);
        }
        if (opacity < 1) {
            try (Paint alpha = new Paint()) {
                alpha.setAlphaf((float) opacity);
                canvas.saveLayer(null, alpha);
            }
        }
        draw(canvas);
        canvas.restoreToCount(count);
    }

    /** Draws the layer's content in the layer's own coordinates. */
    abstract void draw(Canvas canvas);

    /**
     * The layer's masks at {@code time}, added: each mask path's vertices and tangents interpolated between its
     * keyframes as any value, in the layer's coordinates.
     */
    private Path masks(double time) {
        PathBuilder builder = new PathBuilder();
        for (JsonNode mask : layer.path("masksProperties")) {
            JsonNode shape = mask.path("pt");
            JsonNode first = shape.path("k").isObject() ? shape.path("k") : shape.path("k").path(0).path("s").path(0);
            double[] flat = value(shape, time, 0);
            int n = flat.length / 6;
            if (n == 0) {
                continue;
            }
            // flat: the vertices, then the in tangents, then the out tangents, x and y each
            builder.moveTo((float) flat[0], (float) flat[1]);
            int segments = first.path("c").asBoolean(mask.path("cl").asBoolean(true)) ? n : n - 1;
            for (int j = 0; j < segments; j++) {
                int from = j;
                int to = (j + 1) % n;
                builder.cubicTo((float) (flat[2 * from] + flat[4 * n + 2 * from]),
                        (float) (flat[2 * from + 1] + flat[4 * n + 2 * from + 1]),
                        (float) (flat[2 * to] + flat[2 * n + 2 * to]),
                        (float) (flat[2 * to + 1] + flat[2 * n + 2 * to + 1]),
                        (float) flat[2 * to], (float) flat[2 * to + 1]);
            }
            builder.closePath();
        }
        return builder.detach();
    }

    @Override
    public abstract void close();

    private static double at(double[] values, int i) {
        return i < values.length ? values[i] : 0;
    }

    /** A property's value at {@code time}: its static value, or between the keyframes around the time. */
    static double[] value(JsonNode property, double time, double fallback) {
        JsonNode k = property.path("k");
        if (k.isMissingNode()) {
            return new double[]{fallback, fallback, fallback};
        }
        if (!(k.isArray() && k.size() > 0 && k.get(0).isObject())) {
            return numbers(k);
        }
        JsonNode first = k.get(0);
        if (time <= first.path("t").asDouble()) {
            return numbers(first.path("s"));
        }
        for (int i = 0; i < k.size() - 1; i++) {
            JsonNode from = k.get(i);
            JsonNode to = k.get(i + 1);
            double start = from.path("t").asDouble();
            double end = to.path("t").asDouble();
            if (time >= end) {
                continue;
            }
            double[] a = numbers(from.path("s"));
            double[] b = numbers(from.has("e") ? from.path("e") : to.path("s"));
            if (from.path("h").asInt() == 1 || end <= start || b.length == 0) {
                return a;
            }
            double progress = new Easing.Bezier(clamp(first(from.path("o").path("x"), 0)),
                    first(from.path("o").path("y"), 0), clamp(first(from.path("i").path("x"), 1)),
                    first(from.path("i").path("y"), 1)).apply((time - start) / (end - start));
            double[] value = new double[a.length];
            for (int d = 0; d < a.length; d++) {
                value[d] = a[d] + (at(b, d) - a[d]) * progress;
            }
            return value;
        }
        JsonNode last = k.get(k.size() - 1);
        if (last.has("s")) {
            return numbers(last.path("s"));
        }
        JsonNode before = k.get(Math.max(0, k.size() - 2)); // the old format: the last keyframe has only a time
        return numbers(before.has("e") ? before.path("e") : before.path("s"));
    }

    private static double first(JsonNode tangent, double fallback) {
        return tangent.isArray() ? tangent.path(0).asDouble(fallback) : tangent.asDouble(fallback);
    }

    private static double clamp(double x) {
        return Math.max(0, Math.min(1, x));
    }

    /** A value's numbers: a number, an array of numbers, or a path (its vertices, in and out tangents, flattened). */
    private static double[] numbers(JsonNode node) {
        if (node.isNumber()) {
            return new double[]{node.asDouble()};
        }
        JsonNode path = node.isObject() ? node : node.path(0);
        if (path.has("v")) {
            List<Double> flat = new ArrayList<>();
            for (String part : List.of("v", "i", "o")) {
                for (JsonNode point : path.path(part)) {
                    flat.add(point.path(0).asDouble());
                    flat.add(point.path(1).asDouble());
                }
            }
            return flat.stream().mapToDouble(Double::doubleValue).toArray();
        }
        double[] values = new double[node.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = node.get(i).asDouble();
        }
        return values;
    }
}
