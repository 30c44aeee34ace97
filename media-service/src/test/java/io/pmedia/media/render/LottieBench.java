package io.pmedia.media.render;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import io.pmedia.graphics.FrameRenderer;
import io.pmedia.graphics.FrameStream;
import io.pmedia.graphics.LottieLayer;
import io.pmedia.graphics.Scene;
import io.pmedia.graphics.Timing;
import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.MotionFacts;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.TemplateValidator;
import io.pmedia.media.template.Templates;

/**
 * bench/lottie (issue 36): a 10 s 1280x720 template with a full-frame Lottie layer (a sample motion, looped), timed
 * against (1) the same template without it, and (2) the bare pipeline for the Lottie alone: Skottie's frames piped
 * straight into FFmpeg with the engine's x264 settings, beside our template of that Lottie alone. (3), lottie-web in
 * Chromium, is bench/lottie/lottie-web.mjs; run.sh prints it beside these. Alternating runs, medians.
 */
public final class LottieBench {

    static final String TEMPLATE = """
            {"use-case-id": "lottie-bench", "name": "Lottie bench",
             "canvas": {"width": 1280, "height": 720, "fps": 30, "background": "#101820"},
             "fields": [{"name": "name", "required": true}],
             "segments": [{"id": "only", "duration": 10, "layers": [
               {"type": "shape", "shape": "rect", "x": 0, "y": 0, "width": 1280, "height": 720,
                "fill": {"type": "linear", "from": [0, 0], "to": [1, 1], "colors": ["#1d3557", "#457b9d"]}}%s,
               {"type": "text", "text": "Hello {{name}}", "size": 72, "y": 80, "color": "#ffffff",
                "animate": {"in": {"type": "slide", "by": "letter", "from": "down", "stagger": 0.05}}},
               {"type": "text", "text": "Your year with us", "size": 44, "y": 560, "color": "#f1faee"}]}]}""";
    static final String LOTTIE = """
            ,
               {"type": "lottie", "motion": "%s", "x": 0, "y": 0, "width": 1280, "height": 720, "loop": true,
                "text": {"%s": "{{name}}"}}""";
    static final String ALONE = """
            {"use-case-id": "lottie-alone", "name": "Lottie alone",
             "canvas": {"width": 1280, "height": 720, "fps": 30, "background": "#000000"},
             "fields": [{"name": "name", "required": true}],
             "segments": [{"id": "only", "duration": 10, "layers": [
               {"type": "lottie", "motion": "%s", "x": 0, "y": 0, "width": 1280, "height": 720, "loop": true,
                "text": {"%s": "{{name}}"}}]}]}""";

    private LottieBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String motion = args.length > 1 ? args[1] : "confetti-burst";
        Path file = Path.of("deploy/local/motions/" + motion + ".json");
        MotionFacts facts = MotionFacts.of(LottieFile.check(Files.readAllBytes(file)));
        Map<String, MotionFacts> motions = Map.of(motion, facts);
        // the name goes into the file's first text layer
        String text = facts.textLayers().get(0);
        Map<String, Path> files = Map.of(ResolvedVideo.Lottie.fileKey(motion), file);
        FfmpegRunner ffmpeg = FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG"));
        RenderEngine engine = new RenderEngine(ffmpeg, Fonts.DEFAULT_DIRECTORY);
        ResolvedVideo with = video(TEMPLATE.formatted(LOTTIE.formatted(motion, text)), motions);
        ResolvedVideo without = video(TEMPLATE.formatted(""), motions);
        ResolvedVideo alone = video(ALONE.formatted(motion, text), motions);
        String personalized = LottieFile.personalize(Files.readAllBytes(file), Map.of(text, "Ada 王伟"), Map.of(),
                Map.of());
        Path scratch = Files.createTempDirectory("pmedia-lottie-bench");
        try {
            Map<String, Supplier<Double>> cases = new java.util.LinkedHashMap<>();
            cases.put("template without the Lottie layer", () -> render(engine, without, files, scratch));
            cases.put("template with a full-frame Lottie", () -> render(engine, with, files, scratch));
            cases.put("our template of the Lottie alone", () -> render(engine, alone, files, scratch));
            cases.put("bare: Skottie frames piped to x264", () -> bare(ffmpeg.ffmpeg(), personalized, scratch));
            cases.values().forEach(Supplier::get); // warm
            Map<String, List<Double>> times = new java.util.LinkedHashMap<>();
            for (int i = 0; i < runs; i++) {
                cases.forEach((name, run) -> times.computeIfAbsent(name, n -> new ArrayList<>()).add(run.get()));
            }
            System.out.printf(Locale.ROOT, "lottie: 10 s 1280x720 30 fps, motion %s looped, %d runs each,"
                    + " alternating%n", motion, runs);
            Map<String, Double> medians = new java.util.LinkedHashMap<>();
            times.forEach((name, list) -> {
                medians.put(name, RenderBench.median(list));
                System.out.printf(Locale.ROOT, "  %-38s median %.2f s  %s%n", name, medians.get(name), list);
            });
            List<Double> m = new ArrayList<>(medians.values());
            System.out.printf(Locale.ROOT, "  (1) with / without the Lottie layer: %.2f (goal at most 1.5)%n",
                    m.get(1) / m.get(0));
            System.out.printf(Locale.ROOT, "  (2) our Lottie alone / bare Skottie to x264: %.2f (goal at most 1.1)%n",
                    m.get(2) / m.get(3));
            System.out.printf(Locale.ROOT, "ALONE_SECONDS=%.2f%n", m.get(2));
        } finally {
            RenderBench.delete(scratch);
        }
    }

    private static ResolvedVideo video(String json, Map<String, MotionFacts> motions) {
        TemplateDefinition template = Templates.parse(json);
        List<String> problems = TemplateValidator.validate(template,
                new TemplateValidator.Registered(java.util.Set.of(), motions));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("bench template invalid: " + problems);
        }
        return TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data(
                "{\"personalization_fields\": {\"name\": \"Ada 王伟\"}}")));
    }

    private static double render(RenderEngine engine, ResolvedVideo video, Map<String, Path> files, Path scratch) {
        try {
            Path work = Files.createTempDirectory(scratch, "r");
            long start = System.nanoTime();
            engine.render(video, files, work, Duration.ofMinutes(5));
            double seconds = (System.nanoTime() - start) / 1e9;
            RenderBench.delete(work);
            return seconds;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The fastest open pipeline for the same picture: one Skottie layer's frames straight into x264, drawn ahead of
     * the pipe and read by FFmpeg on a thread of its own (an empty second input, as our renders have), so that the
     * peer has what our pipeline has.
     */
    private static double bare(String ffmpeg, String json, Path scratch) {
        try {
            Path out = scratch.resolve("bare.mp4");
            long start = System.nanoTime();
            Process process = new ProcessBuilder(ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo",
                    "-pix_fmt", "rgba", "-s", "1280x720", "-framerate", "30", "-thread_queue_size", "2", "-i", "pipe:0",
                    "-f", "lavfi", "-t", "0.04", "-i", "anullsrc", "-map", "0:v", "-c:v", "libx264", "-preset",
                    "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", out.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            Scene scene = new Scene(1280, 720, 30, List.of(new LottieLayer(new Timing(0, 10, 0, 0), json, 0, 0, 1280,
                    720, Fit.CONTAIN, 1, true, Keyframes.NONE)));
            try (FrameRenderer renderer = new FrameRenderer(scene, FontChain.of(Map.of()));
                    OutputStream stdin = process.getOutputStream()) {
                FrameStream.write(renderer, 300, stdin);
            }
            if (process.waitFor() != 0) {
                throw new IllegalStateException("ffmpeg failed");
            }
            return (System.nanoTime() - start) / 1e9;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
