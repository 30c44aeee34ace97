package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.graphics.text.TextStyle;

/**
 * Each script drawn by the engine against Debian's Chromium drawing the same string with the same fonts (the Noto
 * chain), compared by FFmpeg's SSIM over the text's region. The threshold is the one the negative controls show
 * apart: the engine's text against Chromium drawing the same characters unshaped (a zero-width non-joiner between
 * every two, so nothing joins or forms a conjunct), and the engine without its fallback chain (boxes) against
 * Chromium.
 */
class ChromiumComparisonTest {

    /**
     * Measured here (2026-11-29, Skiko 0.150.2, Chromium 156): shaped text scores 0.977 (Devanagari) to 0.994
     * (Arabic) against Chromium, the two rasterising the same outlines with slightly different anti-aliasing and
     * sub-pixel placement; the negative controls score 0.08 (Thai boxes) to 0.60 (Hebrew with its letters pulled
     * apart). 0.95 leaves the shaped side a margin for rasteriser noise and is far above any control.
     */
    static final double THRESHOLD = 0.95;

    static final Map<String, String> SCRIPTS = new LinkedHashMap<>();
    static {
        SCRIPTS.put("arabic", "محمد عبد الله");
        SCRIPTS.put("hebrew", "שלום עליכם");
        SCRIPTS.put("devanagari", "श्रुति क्षत्रिय");
        SCRIPTS.put("thai", "สมชาย ใจดี");
        SCRIPTS.put("chinese", "王伟 你好");
        SCRIPTS.put("japanese", "さくら 日本語");
        SCRIPTS.put("korean", "김민준 안녕하세요");
        SCRIPTS.put("emoji", "José 🎉🚀");
        SCRIPTS.put("mixed", "Hello محمد, welcome");
    }
    static final int WIDTH = 800;
    static final int HEIGHT = 140;
    static final int SIZE = 48;

    static Path dir;
    static final Map<String, Double> shaped = new LinkedHashMap<>();
    static final Map<String, Double> negative = new LinkedHashMap<>();

    @BeforeAll
    static void drawBoth() throws Exception {
        // Kept in target/ for a look at what was compared.
        Path temp = Files.createDirectories(Path.of("target/chromium-comparison"));
        dir = temp;
        List<String> items = new ArrayList<>();
        for (Map.Entry<String, String> script : SCRIPTS.entrySet()) {
            items.add(item(script.getValue(), temp.resolve(script.getKey() + "-chromium.png")));
            items.add(item(unshaped(script.getValue()), temp.resolve(script.getKey() + "-unshaped.png")));
        }
        String families = String.join(", ", FontChain.FALLBACK.stream().map(ChromiumComparisonTest::json).toList());
        Path job = temp.resolve("job.json");
        Files.writeString(job, "{\"width\": " + WIDTH + ", \"height\": " + HEIGHT + ", \"x\": 20, \"y\": 20,"
                + " \"size\": " + SIZE + ", \"lineHeight\": 1.2, \"families\": [" + families + "], \"items\": ["
                + String.join(", ", items) + "]}");
        Path script = Path.of("src/test/node/draw-text.mjs").toAbsolutePath();
        Processes.run(List.of("node", script.toString(), job.toString()), 120);

        FontChain chain = FontChain.of(Map.of());
        FontChain boxes = FontChain.of(Map.of("sans", TextShapingTest.DEJAVU), false);
        for (Map.Entry<String, String> s : SCRIPTS.entrySet()) {
            BufferedImage engine = engine(s.getValue(), chain, "Noto Sans");
            ImageIO.write(engine, "png", temp.resolve(s.getKey() + "-engine.png").toFile());
            BufferedImage chromium = ImageIO.read(temp.resolve(s.getKey() + "-chromium.png").toFile());
            BufferedImage unshaped = ImageIO.read(temp.resolve(s.getKey() + "-unshaped.png").toFile());
            shaped.put(s.getKey(), ssim(engine, chromium, s.getKey() + "-shaped"));
            double control = Math.min(ssim(engine, unshaped, s.getKey() + "-unshaped"),
                    ssim(engine(s.getValue(), boxes, "sans"), chromium, s.getKey() + "-boxes"));
            negative.put(s.getKey(), control);
        }
        System.err.printf(Locale.ROOT, "SSIM against Chromium: %s%nnegative controls: %s%n", shaped, negative);
    }

    @Test
    void everyScriptLooksAsChromiumDrawsIt() {
        assertThat(shaped).allSatisfy((script, ssim) -> assertThat(ssim).as("SSIM of %s", script)
                .isGreaterThanOrEqualTo(THRESHOLD));
    }

    @Test
    void theThresholdTellsUnshapedTextAndBoxesApart() {
        // The lower of the two controls: Chinese, Japanese and Korean hardly change when a ZWNJ separates their
        // letters, but DejaVu lacks them (boxes); Arabic and Hebrew are in DejaVu, but their letters pulled apart
        // by ZWNJs are not what Chromium draws.
        assertThat(negative).allSatisfy((script, ssim) -> assertThat(ssim).as("negative control of %s", script)
                .isLessThan(THRESHOLD));
    }

    private static BufferedImage engine(String text, FontChain fonts, String family) {
        TextLayer layer = new TextLayer(new Timing(0, 1, 0, 0), text,
                new TextStyle(family, SIZE, SIZE, 1, 1.2, 0xff000000, 0), 20, TextLayer.Align.LEFT, 20,
                TextLayer.Anchor.TOP, WIDTH - 40, null, null, null, null, null);
        ShapeLayer white = new ShapeLayer(new Timing(0, 1, 0, 0), new Geometry.Rect(0, 0, WIDTH, HEIGHT),
                new Fill.Solid(0xffffffff), null, null, null);
        try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, 25, List.of(white, layer)), fonts)) {
            byte[] rgba = renderer.render(0);
            BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
            for (int i = 0; i < WIDTH * HEIGHT; i++) {
                image.setRGB(i % WIDTH, i / WIDTH, (rgba[i * 4] & 0xff) << 16 | (rgba[i * 4 + 1] & 0xff) << 8
                        | (rgba[i * 4 + 2] & 0xff));
            }
            return image;
        }
    }

    /**
     * SSIM over the ink's region, the two pictures aligned on their ink's boxes or on their ink's centres of mass,
     * whichever matches better (so that a sub-pixel difference in where the two place a line does not count, only
     * what they draw).
     */
    private static double ssim(BufferedImage a, BufferedImage b, String name) throws Exception {
        int[] boxA = ink(a);
        int[] boxB = ink(b);
        double[] centreA = centre(a);
        double[] centreB = centre(b);
        return Math.max(ssim(a, b, boxA, boxB, boxB[0] - boxA[0], boxB[1] - boxA[1], name + "-box"),
                ssim(a, b, boxA, boxB, (int) Math.round(centreB[0] - centreA[0]),
                        (int) Math.round(centreB[1] - centreA[1]), name + "-centre"));
    }

    private static double ssim(BufferedImage a, BufferedImage b, int[] boxA, int[] boxB, int dx, int dy,
            String name) throws Exception {
        int left = Math.min(boxA[0], boxB[0] - dx) - 4;
        int top = Math.min(boxA[1], boxB[1] - dy) - 4;
        int w = Math.max(boxA[2], boxB[2] - dx) + 4 - left;
        int h = Math.max(boxA[3], boxB[3] - dy) + 4 - top;
        Path pa = pgm(a, new int[]{left, top}, w, h, dir.resolve(name + "-a.pgm"));
        Path pb = pgm(b, new int[]{left + dx, top + dy}, w, h, dir.resolve(name + "-b.pgm"));
        String log = Processes.run(List.of("ffmpeg", "-hide_banner", "-nostats", "-i", pa.toString(), "-i",
                pb.toString(), "-lavfi", "ssim", "-f", "null", "-"), 60);
        Matcher all = Pattern.compile("All:([0-9.]+)").matcher(log);
        assertThat(all.find()).as("ffmpeg's ssim output: %s", log).isTrue();
        return Double.parseDouble(all.group(1));
    }

    private static double[] centre(BufferedImage image) {
        double sum = 0;
        double sx = 0;
        double sy = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                double ink = 255 - gray(image.getRGB(x, y));
                sum += ink;
                sx += ink * x;
                sy += ink * y;
            }
        }
        return new double[]{sx / sum, sy / sum};
    }

    private static int[] ink(BufferedImage image) {
        int left = image.getWidth();
        int top = image.getHeight();
        int right = 0;
        int bottom = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if (gray(image.getRGB(x, y)) < 200) {
                    left = Math.min(left, x);
                    top = Math.min(top, y);
                    right = Math.max(right, x + 1);
                    bottom = Math.max(bottom, y + 1);
                }
            }
        }
        assertThat(right).as("ink drawn").isPositive();
        return new int[]{left, top, right, bottom};
    }

    private static Path pgm(BufferedImage image, int[] origin, int w, int h, Path file) throws IOException {
        byte[] header = ("P5\n" + w + " " + h + "\n255\n").getBytes(StandardCharsets.US_ASCII);
        byte[] data = new byte[header.length + w * h];
        System.arraycopy(header, 0, data, 0, header.length);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int sx = origin[0] + x;
                int sy = origin[1] + y;
                boolean inside = sx >= 0 && sy >= 0 && sx < image.getWidth() && sy < image.getHeight();
                data[header.length + y * w + x] = (byte) (inside ? gray(image.getRGB(sx, sy)) : 255);
            }
        }
        Files.write(file, data);
        return file;
    }

    private static int gray(int rgb) {
        return (299 * (rgb >> 16 & 0xff) + 587 * (rgb >> 8 & 0xff) + 114 * (rgb & 0xff)) / 1000;
    }

    /** The same characters with a zero-width non-joiner between every two: nothing joins, no conjunct forms. */
    private static String unshaped(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> out.appendCodePoint(c).append(c == ' ' ? "" : "\u200c"));
        return out.toString();
    }

    private static String item(String text, Path out) {
        return "{\"text\": " + json(text) + ", \"out\": " + json(out.toString()) + "}";
    }

    private static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                out.append('\\').appendCodePoint(c);
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.append('"').toString();
    }
}
