import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the Lottie sample files of deploy/local/motions in the structure After Effects' Bodymovin exports: shape
 * layers of groups with their own transforms, a precomp, a mask, trim paths, point text in a font named in
 * fonts.list, a colour slot (sid) and eased keyframes. The JSON files are what gets registered; this is how they
 * were made, so that a change to a sample is a change here.
 * <p>
 * Usage: {@code java scripts/LottieSamples.java deploy/local/motions}
 */
public class LottieSamples {

    static final double FPS = 30;
    static final Map<String, Object> FONTS = map("list", List.of(map("fName", "NotoSans-Bold", "fFamily",
            "Noto Sans", "fStyle", "Bold", "ascent", 71.4)));

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "deploy/local/motions");
        Files.createDirectories(dir);
        write(dir.resolve("confetti-burst.json"), confettiBurst());
        write(dir.resolve("counter-ring.json"), counterRing());
        write(dir.resolve("check-seal.json"), checkSeal());
    }

    /** A birthday: rays behind a circular mask that opens, confetti flying out of a precomp, a name that pops. */
    static Map<String, Object> confettiBurst() {
        int op = 90;
        List<Object> pieces = new ArrayList<>();
        double[][] colours = {{1, 0.78, 0.2}, {0.98, 0.36, 0.45}, {0.33, 0.8, 0.95}, {0.55, 0.9, 0.5}};
        for (int i = 0; i < 14; i++) {
            double angle = Math.toRadians(i * 360.0 / 14 + 8);
            double reach = 260 + (i % 3) * 70;
            double[] to = {640 + Math.cos(angle) * reach * 1.4, 360 + Math.sin(angle) * reach};
            Object shape = i % 2 == 0 ? rect(18, 30, 3) : ellipse(20, 20);
            Object fill = i % 4 == 1 ? fill(colours[1], "accent") : fill(colours[i % 4], null);
            pieces.add(layer(i + 1, 4, "piece " + (i + 1), transform(100,
                    animated(key(4, ease(), 0), key(40, null, 360 * (i % 2 == 0 ? 1 : -1))),
                    animated(key(4, ease(), 640, 360, 0), key(40, null, to[0], to[1], 0)),
                    animated(key(4, ease(), 20, 20, 100), key(16, null, 100, 100, 100))), op,
                    "shapes", List.of(group("piece", shape, fill))));
        }
        List<Object> layers = new ArrayList<>();
        layers.add(layer(1, 5, "NAME", transform(100, 0, at(640, 620), animated(key(20, overshoot(), 0, 0, 100),
                key(36, null, 100, 100, 100))), op, "t", text("Happy birthday, Ada!", 64, 2, new double[]{1, 1,
                        1})));
        layers.add(layer(2, 0, "confetti", transform(100, 0, at(640, 360), null), op, "refId", "comp_confetti",
                "w", 1280, "h", 720));
        layers.add(layer(3, 4, "ring", transform(100, 0, at(640, 330), null), op, "shapes", List.of(group("ring",
                ellipse(300, 300), stroke(new double[]{1, 1, 1}, 10, null),
                trim(animated(key(0, ease(), 0), key(30, null, 100)), 0)))));
        Map<String, Object> rays = layer(4, 4, "rays", transform(100, animated(key(0, linear(), 0),
                key(op, null, 60)), at(640, 330), null), op, "shapes", List.of(group("ray", rect(1400, 34, 0),
                        fill(new double[]{0.36, 0.2, 0.62}, null)), repeater(9, 20)));
        rays.put("hasMask", true);
        rays.put("masksProperties", List.of(mask("a", animated(key(0, ease(), circle(0, 0, 40)),
                key(24, null, circle(0, 0, 700))))));
        layers.add(rays);
        layers.add(layer(5, 1, "background", transform(100, 0, at(640, 360), null), op, "sc", "#2a1450", "sw",
                1280, "sh", 720));
        fixAnchors(layers, 640, 360);
        return file("confetti-burst", op, layers, List.of(map("id", "comp_confetti", "nm", "confetti", "fr", FPS,
                "layers", pieces)), map("accent", map("p", staticValue(0.98, 0.36, 0.45, 1))));
    }

    /** A year in review: a ring that fills to its share by trim paths, the number in the middle, a caption. */
    static Map<String, Object> counterRing() {
        int op = 90;
        List<Object> ring = new ArrayList<>();
        ring.add(layer(1, 4, "progress", transform(100, -90, at(360, 360), null), op, "shapes", List.of(group(
                "arc", ellipse(420, 420), stroke(new double[]{0.2, 0.85, 0.6}, 36, "accent"),
                trim(0, animated(key(6, ease(), 0), key(54, null, 78)))))));
        ring.add(layer(2, 4, "track", transform(100, 0, at(360, 360), null), op, "shapes", List.of(group("track",
                ellipse(420, 420), stroke(new double[]{0.22, 0.25, 0.33}, 36, null)))));
        List<Object> layers = new ArrayList<>();
        layers.add(layer(1, 5, "VALUE", transform(animated(key(10, ease(), 0), key(24, null, 100)), 0, at(640,
                378), null), op, "t", text("1,284", 96, 2, new double[]{1, 1, 1})));
        Map<String, Object> caption = layer(2, 5, "CAPTION", transform(100, 0, at(640, 660), null), op, "t",
                text("orders this year", 40, 2, new double[]{0.75, 0.78, 0.85}));
        caption.put("hasMask", true);
        caption.put("masksProperties", List.of(mask("a", animated(key(30, ease(), box(-260, -50, -240, 20)),
                key(54, null, box(-260, -50, 260, 20))))));
        layers.add(caption);
        layers.add(layer(3, 0, "ring", transform(100, 0, at(640, 350), null), op, "refId", "comp_ring", "w", 720,
                "h", 720));
        // no background: the ring is laid over the template (year-in-review), as a designer exports an overlay
        fixAnchors(layers, 640, 360);
        fixAnchors(ring, 360, 360);
        return file("counter-ring", op, layers, List.of(map("id", "comp_ring", "nm", "ring", "fr", FPS, "layers",
                ring)), map("accent", map("p", staticValue(0.2, 0.85, 0.6, 1))));
    }

    /**
     * An order confirmation: a seal that pops and turns, a check mark drawn by trim paths, the order number, and the
     * shop's logo (an image placeholder, {@code images/logo.png}, the template gives it).
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> checkSeal() {
        int op = 75;
        List<Object> seal = new ArrayList<>();
        seal.add(layer(1, 4, "check", transform(100, 0, at(300, 300), null), op, "shapes", List.of(group("check",
                path(false, new double[][]{{-80, 5}, {-25, 60}, {85, -55}}), stroke(new double[]{1, 1, 1}, 28,
                        null), trim(0, animated(key(20, ease(), 0), key(40, null, 100)))))));
        seal.add(layer(2, 4, "seal", transform(100, animated(key(0, ease(), -30), key(op, null, 20)), at(300, 300),
                animated(key(0, overshoot(), 0, 0, 100), key(18, null, 100, 100, 100))), op, "shapes", List.of(
                        group("seal", star(14, 250, 215), fill(new double[]{0.15, 0.55, 0.95}, "accent")))));
        List<Object> layers = new ArrayList<>();
        Map<String, Object> order = layer(1, 5, "ORDER", transform(100, 0, at(640, 630), null), op, "t",
                text("Order #10442 is confirmed", 52, 2, new double[]{0.12, 0.14, 0.2}));
        order.put("hasMask", true);
        order.put("masksProperties", List.of(mask("a", animated(key(30, ease(), box(-400, -60, -380, 25)),
                key(54, null, box(-400, -60, 400, 25))))));
        layers.add(order);
        Map<String, Object> logo = layer(2, 2, "LOGO", transform(animated(key(8, ease(), 0), key(20, null, 100)), 0,
                at(1140, 140), animated(key(8, overshoot(), 60, 60, 100), key(24, null, 100, 100, 100))), op,
                "refId", "logo");
        ((Map<String, Object>) logo.get("ks")).put("a", property(List.of(80, 80, 0), 1));
        layers.add(logo);
        layers.add(layer(3, 0, "seal", transform(100, 0, at(640, 300), null), op, "refId", "comp_seal", "w", 600,
                "h", 600));
        // no background: the seal is laid over the template (order-confirmation)
        fixAnchors(layers, 640, 360);
        fixAnchors(seal, 300, 300);
        return file("check-seal", op, layers, List.of(map("id", "logo", "w", 160, "h", 160, "u", "images/", "p",
                "logo.png", "e", 0), map("id", "comp_seal", "nm", "seal", "fr", FPS, "layers", seal)),
                map("accent", map("p", staticValue(0.15, 0.55, 0.95, 1))));
    }

    // ---- the Bodymovin structures

    static Map<String, Object> file(String name, int op, List<Object> layers, List<Object> assets,
            Map<String, Object> slots) {
        return map("v", "5.12.2", "fr", FPS, "ip", 0, "op", op, "w", 1280, "h", 720, "nm", name, "ddd", 0,
                "assets", assets, "fonts", FONTS, "layers", layers, "markers", List.of(), "slots", slots);
    }

    static Map<String, Object> layer(int index, int type, String name, Map<String, Object> ks, int op,
            Object... extra) {
        Map<String, Object> layer = map("ddd", 0, "ind", index, "ty", type, "nm", name, "sr", 1, "ks", ks, "ao",
                0);
        for (int i = 0; i < extra.length; i += 2) {
            layer.put((String) extra[i], extra[i + 1]);
        }
        layer.putAll(map("ip", 0, "op", op, "st", 0, "bm", 0));
        return layer;
    }

    /** Solids and precomps are anchored at their centre, as After Effects anchors a new layer. */
    static void fixAnchors(List<Object> layers, double cx, double cy) {
        for (Object o : layers) {
            @SuppressWarnings("unchecked")
            Map<String, Object> layer = (Map<String, Object>) o;
            @SuppressWarnings("unchecked")
            Map<String, Object> ks = (Map<String, Object>) layer.get("ks");
            int type = (int) layer.get("ty");
            if (type == 1 || type == 0) {
                double w = ((Number) layer.getOrDefault("w", layer.get("sw"))).doubleValue();
                double h = ((Number) layer.getOrDefault("h", layer.get("sh"))).doubleValue();
                ks.put("a", map("a", 0, "k", List.of(w / 2, h / 2, 0), "ix", 1, "l", 2));
            }
        }
    }

    static Map<String, Object> transform(Object opacity, Object rotation, Object position, Object scale) {
        return map("o", property(opacity, 11), "r", property(rotation, 10), "p", property(position, 2), "a",
                property(List.of(0, 0, 0), 1), "s", property(scale == null ? List.of(100, 100, 100) : scale, 6));
    }

    static List<Object> at(double x, double y) {
        return List.of(x, y, 0);
    }

    static Map<String, Object> property(Object value, int index) {
        if (value instanceof Map<?, ?> map && map.containsKey("k")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> animated = new LinkedHashMap<>((Map<String, Object>) map);
            animated.put("ix", index);
            return animated;
        }
        return map("a", 0, "k", value, "ix", index);
    }

    static Map<String, Object> staticValue(double... values) {
        return map("a", 0, "k", list(values));
    }

    static Map<String, Object> animated(Map<String, Object>... keys) {
        return map("a", 1, "k", List.of(keys));
    }

    /** A keyframe at frame {@code t}; the last takes no easing. Shapes go in as they are, values as arrays. */
    static Map<String, Object> key(double t, double[] easing, Object... values) {
        Map<String, Object> key = new LinkedHashMap<>();
        if (easing != null) {
            key.put("i", map("x", List.of(easing[2]), "y", List.of(easing[3])));
            key.put("o", map("x", List.of(easing[0]), "y", List.of(easing[1])));
        }
        key.put("t", t);
        key.put("s", values.length == 1 && values[0] instanceof Map ? List.of(values[0]) : Arrays.asList(values));
        return key;
    }

    static double[] ease() {
        return new double[]{0.33, 0, 0.2, 1};
    }

    static double[] overshoot() {
        return new double[]{0.3, 0, 0.3, 1.4};
    }

    static double[] linear() {
        return new double[]{0.5, 0.5, 0.5, 0.5};
    }

    static Map<String, Object> group(String name, Object... items) {
        List<Object> it = new ArrayList<>(List.of(items));
        it.add(map("ty", "tr", "p", property(List.of(0, 0), 2), "a", property(List.of(0, 0), 1), "s",
                property(List.of(100, 100), 3), "r", property(0, 6), "o", property(100, 7), "sk", property(0, 4),
                "sa", property(0, 5), "nm", "Transform"));
        return map("ty", "gr", "it", it, "nm", name, "np", items.length, "cix", 2, "bm", 0, "ix", 1, "hd", false);
    }

    static Map<String, Object> rect(double w, double h, double radius) {
        return map("ty", "rc", "d", 1, "s", property(List.of(w, h), 2), "p", property(List.of(0, 0), 3), "r",
                property(radius, 4), "nm", "Rectangle Path 1", "hd", false);
    }

    static Map<String, Object> ellipse(double w, double h) {
        return map("ty", "el", "d", 1, "s", property(List.of(w, h), 2), "p", property(List.of(0, 0), 3), "nm",
                "Ellipse Path 1", "hd", false);
    }

    static Map<String, Object> star(int points, double outer, double inner) {
        return map("ty", "sr", "sy", 1, "d", 1, "pt", property(points, 3), "p", property(List.of(0, 0), 4), "r",
                property(0, 5), "ir", property(inner, 6), "is", property(0, 8), "or", property(outer, 7), "os",
                property(0, 9), "ix", 1, "nm", "Polystar Path 1", "hd", false);
    }

    static Map<String, Object> path(boolean closed, double[][] points) {
        return map("ty", "sh", "ix", 1, "ks", property(bezier(closed, points), 2), "nm", "Path 1", "hd", false);
    }

    /** A path of straight segments (tangents zero). */
    static Map<String, Object> bezier(boolean closed, double[][] points) {
        List<Object> v = new ArrayList<>();
        List<Object> zero = new ArrayList<>();
        for (double[] p : points) {
            v.add(list(p));
            zero.add(List.of(0, 0));
        }
        return map("i", zero, "o", zero, "v", v, "c", closed);
    }

    /** A circle as After Effects writes a mask ellipse: four vertices with tangents of 0.5523 the radius. */
    static Map<String, Object> circle(double cx, double cy, double r) {
        double t = r * 0.5523;
        return map("i", List.of(List.of(-t, 0), List.of(0, -t), List.of(t, 0), List.of(0, t)),
                "o", List.of(List.of(t, 0), List.of(0, t), List.of(-t, 0), List.of(0, -t)),
                "v", List.of(List.of(cx, cy - r), List.of(cx + r, cy), List.of(cx, cy + r), List.of(cx - r, cy)),
                "c", true);
    }

    static Map<String, Object> box(double left, double top, double right, double bottom) {
        return bezier(true, new double[][]{{left, top}, {right, top}, {right, bottom}, {left, bottom}});
    }

    static Map<String, Object> mask(String mode, Object path) {
        return map("inv", false, "mode", mode, "pt", property(path, 1), "o", property(100, 3), "x", property(0, 4),
                "nm", "Mask 1");
    }

    static Map<String, Object> fill(double[] rgb, String slot) {
        Map<String, Object> colour = property(List.of(rgb[0], rgb[1], rgb[2], 1), 4);
        if (slot != null) {
            colour.put("sid", slot);
        }
        return map("ty", "fl", "c", colour, "o", property(100, 5), "r", 1, "bm", 0, "nm", "Fill 1", "hd", false);
    }

    static Map<String, Object> stroke(double[] rgb, double width, String slot) {
        Map<String, Object> colour = property(List.of(rgb[0], rgb[1], rgb[2], 1), 3);
        if (slot != null) {
            colour.put("sid", slot);
        }
        return map("ty", "st", "c", colour, "o", property(100, 4), "w", property(width, 5), "lc", 2, "lj", 2, "bm",
                0, "nm", "Stroke 1", "hd", false);
    }

    static Map<String, Object> trim(Object start, Object end) {
        return map("ty", "tm", "s", property(start, 1), "e", property(end, 2), "o", property(0, 3), "m", 1, "ix",
                3, "nm", "Trim Paths 1", "hd", false);
    }

    static Map<String, Object> repeater(int copies, double degrees) {
        return map("ty", "rp", "c", property(copies, 1), "o", property(0, 2), "m", 1, "ix", 2, "tr", map("ty",
                "tr", "p", property(List.of(0, 0), 2), "a", property(List.of(0, 0), 1), "s", property(List.of(100,
                        100), 3), "r", property(degrees, 4), "so", property(100, 5), "eo", property(100, 6), "nm",
                "Transform"), "nm", "Repeater 1", "hd", false);
    }

    /** Point text (the layer's position is the first line's baseline, justified {@code j}: 2 centred). */
    static Map<String, Object> text(String text, double size, int justify, double[] rgb) {
        Map<String, Object> document = map("s", size, "f", "NotoSans-Bold", "t", text, "ca", 0, "j", justify,
                "tr", 0, "lh", size * 1.2, "ls", 0, "fc", list(rgb));
        return map("d", map("k", List.of(map("s", document, "t", 0))), "p", map(), "m", map("g", 1, "a",
                property(List.of(0, 0), 2)), "a", List.of());
    }

    // ---- JSON

    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    static List<Object> list(double... values) {
        List<Object> list = new ArrayList<>();
        for (double v : values) {
            list.add(v);
        }
        return list;
    }

    static void write(Path file, Map<String, Object> lottie) throws IOException {
        StringBuilder out = new StringBuilder();
        json(lottie, out);
        Files.writeString(file, out.append('\n').toString());
    }

    static void json(Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            String comma = "";
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(comma);
                json(e.getKey(), out);
                out.append(':');
                json(e.getValue(), out);
                comma = ",";
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? "," : "");
                json(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof String s) {
            out.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        } else if (value instanceof Double d) {
            out.append(d == Math.rint(d) && Math.abs(d) < 1e9 ? String.valueOf(d.longValue())
                    : String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", ""));
        } else {
            out.append(value);
        }
    }
}
