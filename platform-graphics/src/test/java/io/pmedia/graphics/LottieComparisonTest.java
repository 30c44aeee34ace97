package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.lottie.LottieCheck;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.graphics.text.FontChain;

/**
 * Lottie frames drawn by the engine (Skottie) against lottie-web's SVG renderer in Debian's Chromium: the same
 * file, the same frames, the same canvas, the animation fitted contain and centred on white, compared by FFmpeg's
 * SSIM over the whole canvas. The files: the samples of deploy/local/motions and the After Effects exports that the
 * lottie-web npm package ships in test/animations. The negative controls are the engine one frame late and the
 * engine 4 pixels to the right: a broken clock or a broken fit. Every file is held to both thresholds; where the
 * two players read a file differently, {@code LottieFile.personalize} repairs it for Skottie ({@code PathCounts},
 * {@code OpenMasks}, {@code TextAnchors}; docs/decisions.md).
 */
class LottieComparisonTest {

    static final double FRAME_THRESHOLD = 0.97;
    static final double MEDIAN_THRESHOLD = 0.99;
    static final int WIDTH = 800;
    static final int HEIGHT = 450;
    /** Frames compared per file, spread evenly from the in point to the last frame. */
    static final int FRAMES = 10;
    static final Path MOTIONS = Path.of("../deploy/local/motions");
    static final List<String> SAMPLES = List.of("check-seal", "confetti-burst", "counter-ring");
    static final Path CORPUS = Path.of("../build/node/node_modules/lottie-web/test/animations");

    /**
     * What each image asset is given: a 240x120 PNG of four coloured quarters and a diagonal, wider than the square
     * box of the sample's logo, so that where it is placed, how it is cropped ({@code xMidYMid slice}) and scaled
     * all show.
     */
    static final byte[] PICTURE = picture();

    static Path dir;
    /** Per file: the SSIM of each sampled frame; the same one frame late; the same 4 pixels off. */
    static final Map<String, double[]> engine = new LinkedHashMap<>();
    static final Map<String, double[]> late = new LinkedHashMap<>();
    static final Map<String, double[]> shifted = new LinkedHashMap<>();

    @BeforeAll
    static void drawBoth() throws Exception {
        dir = Files.createDirectories(Path.of("target/lottie-comparison"));
        Map<String, Path> files = new LinkedHashMap<>();
        try (Stream<Path> motions = Files.list(MOTIONS); Stream<Path> corpus = Files.list(CORPUS)) {
            Stream.concat(motions.sorted(), corpus.sorted()).filter(f -> f.toString().endsWith(".json"))
                    .forEach(f -> files.put(f.getFileName().toString().replace(".json", ""), f));
        }
        assertThat(files).as("samples and lottie-web's exports").hasSizeGreaterThanOrEqualTo(12);

        Map<String, LottieCheck> checks = new LinkedHashMap<>();
        Map<String, String> played = new LinkedHashMap<>();
        List<String> items = new ArrayList<>();
        for (Map.Entry<String, Path> file : files.entrySet()) {
            byte[] bytes = Files.readAllBytes(file.getValue());
            LottieCheck check = LottieFile.check(bytes);
            Map<String, byte[]> images = new LinkedHashMap<>();
            check.imageAssets().forEach(id -> images.put(id, PICTURE));
            String json = LottieFile.personalize(bytes, Map.of(), Map.of(), images);
            Path copy = Files.writeString(dir.resolve(file.getKey() + ".json"), json);
            checks.put(file.getKey(), check);
            played.put(file.getKey(), json);
            List<String> outs = new ArrayList<>();
            for (int i = 0; i < FRAMES; i++) {
                outs.add('"' + png(file.getKey(), "web", i).toString() + '"');
            }
            items.add("{\"json\": \"" + copy + "\", \"frames\": " + Arrays.toString(frames(check)) + ", \"out\": "
                    + outs + "}");
        }
        Path job = Files.writeString(dir.resolve("job.json"), "{\"width\": " + WIDTH + ", \"height\": " + HEIGHT
                + ", \"items\": [" + String.join(",\n", items) + "]}");
        Processes.run(List.of("node", Path.of("src/test/node/draw-lottie.mjs").toAbsolutePath().toString(),
                job.toString()), 900);

        FontChain fonts = FontChain.of(Map.of());
        for (String name : files.keySet()) {
            LottieCheck check = checks.get(name);
            draw(name, "engine", played.get(name), check, 0, 0, fonts);
            draw(name, "late", played.get(name), check, 1, 0, fonts);
            draw(name, "shifted", played.get(name), check, 0, 4, fonts);
            engine.put(name, ssim(name, "engine"));
            late.put(name, ssim(name, "late"));
            shifted.put(name, ssim(name, "shifted"));
        }
        for (String name : files.keySet()) {
            System.err.printf(Locale.ROOT, "%-16s worst %.4f median %.4f | one frame late: worst %.4f median %.4f"
                    + " | 4 px off: worst %.4f median %.4f%n", name, worst(engine.get(name)),
                    median(engine.get(name)), worst(late.get(name)), median(late.get(name)),
                    worst(shifted.get(name)), median(shifted.get(name)));
        }
    }

    @Test
    void everySampledFrameLooksAsLottieWebDrawsIt() {
        assertThat(engine).allSatisfy((name, scores) -> assertThat(worst(scores)).as("worst frame of %s: %s", name,
                Arrays.toString(scores)).isGreaterThanOrEqualTo(FRAME_THRESHOLD));
    }

    @Test
    void eachFilesMedianIsCloseToLottieWeb() {
        assertThat(engine).allSatisfy((name, scores) -> assertThat(median(scores)).as("median of %s", name)
                .isGreaterThanOrEqualTo(MEDIAN_THRESHOLD));
    }

    @Test
    void theThresholdsRejectAnEngineOneFrameLate() {
        assertThat(passes(late)).as("files a clock one frame late would pass").doesNotContainAnyElementsOf(SAMPLES)
                .hasSizeLessThan(late.size() / 2);
    }

    @Test
    void theThresholdsRejectAnEngineFourPixelsOff() {
        assertThat(passes(shifted)).as("files a fit 4 pixels off would pass").doesNotContainAnyElementsOf(SAMPLES)
                .hasSizeLessThan(shifted.size() / 2);
    }

    private static List<String> passes(Map<String, double[]> scores) {
        return scores.entrySet().stream().filter(e -> worst(e.getValue()) >= FRAME_THRESHOLD
                && median(e.getValue()) >= MEDIAN_THRESHOLD).map(Map.Entry::getKey).toList();
    }

    /** The sampled frames (the file's own numbers, counted from its in point), even from first to last. */
    static long[] frames(LottieCheck check) {
        long last = (long) Math.ceil(check.outPoint() - check.inPoint()) - 1;
        long[] frames = new long[FRAMES];
        for (int i = 0; i < FRAMES; i++) {
            frames[i] = Math.round((double) i * last / (FRAMES - 1));
        }
        return frames;
    }

    /**
     * The engine's frames of a file: a scene at the file's frame rate, white under a full-canvas Lottie layer, so
     * that scene frame i is file frame {@code ip + i}; {@code lateBy} frames late and {@code dx} pixels right for
     * the controls.
     */
    private static void draw(String name, String kind, String json, LottieCheck check, int lateBy, double dx,
            FontChain fonts) throws IOException {
        Timing always = new Timing(-1, 1e6, 0, 0);
        ShapeLayer white = new ShapeLayer(always, new Geometry.Rect(0, 0, WIDTH, HEIGHT),
                new Fill.Solid(0xffffffff), null, null, null);
        LottieLayer layer = new LottieLayer(new Timing(lateBy / check.frameRate(), 1e6, 0, 0), json, dx, 0, WIDTH,
                HEIGHT, Fit.CONTAIN, 1, false, null);
        Scene scene = new Scene(WIDTH, HEIGHT, check.frameRate(), List.of(white, layer));
        long[] frames = frames(check);
        try (FrameRenderer renderer = new FrameRenderer(scene, fonts)) {
            for (int i = 0; i < FRAMES; i++) {
                ImageIO.write(image(renderer.render(frames[i])), "png", png(name, kind, i).toFile());
            }
        }
    }

    private static byte[] picture() {
        BufferedImage picture = new BufferedImage(240, 120, BufferedImage.TYPE_INT_RGB);
        int[] quarters = {0xe63946, 0x2a9d8f, 0xf4a261, 0x264653};
        for (int y = 0; y < 120; y++) {
            for (int x = 0; x < 240; x++) {
                boolean diagonal = Math.abs(x / 2 - y) < 4;
                picture.setRGB(x, y, diagonal ? 0xffffff : quarters[(x < 120 ? 0 : 1) + (y < 60 ? 0 : 2)]);
            }
        }
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        try {
            ImageIO.write(picture, "png", png);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return png.toByteArray();
    }

    static BufferedImage image(byte[] rgba) {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        int[] pixels = new int[WIDTH * HEIGHT];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (rgba[i * 4] & 0xff) << 16 | (rgba[i * 4 + 1] & 0xff) << 8 | (rgba[i * 4 + 2] & 0xff);
        }
        image.setRGB(0, 0, WIDTH, HEIGHT, pixels, 0, WIDTH);
        return image;
    }

    private static Path png(String name, String kind, int index) {
        return dir.resolve(String.format(Locale.ROOT, "%s-%s-%02d.png", name, kind, index)).toAbsolutePath();
    }

    /** SSIM of each sampled frame, FFmpeg's ssim filter over the two image sequences in one run. */
    private static double[] ssim(String name, String kind) throws Exception {
        Path stats = dir.resolve(name + "-" + kind + "-ssim.log");
        Processes.run(List.of("ffmpeg", "-hide_banner", "-nostats", "-y", "-i", dir.resolve(name + "-" + kind
                + "-%02d.png").toString(), "-i", dir.resolve(name + "-web-%02d.png").toString(), "-lavfi",
                "ssim=stats_file=" + stats, "-f", "null", "-"), 120);
        List<String> lines = Files.readAllLines(stats);
        assertThat(lines).as("FFmpeg's SSIM of each frame of %s", name).hasSize(FRAMES);
        double[] scores = new double[FRAMES];
        Pattern all = Pattern.compile("All:([0-9.]+)");
        for (int i = 0; i < FRAMES; i++) {
            Matcher m = all.matcher(lines.get(i));
            assertThat(m.find()).as(lines.get(i)).isTrue();
            scores[i] = Double.parseDouble(m.group(1));
        }
        return scores;
    }

    static double worst(double[] scores) {
        return Arrays.stream(scores).min().orElseThrow();
    }

    static double median(double[] scores) {
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
