package io.pmedia.media.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.ffmpeg.GraphicsInput;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.TemplateValidator;
import io.pmedia.media.template.Templates;

/**
 * bench/graphics: a 10 s 1280x720 template with animated text (per letter and per word), keyframed shapes and
 * gradients, against the same template with its text and shapes still (no animate, no keyframes), rendered
 * alternately through the whole engine (graphics engine, FFmpeg, H.264); prints medians and their ratio.
 */
public final class GraphicsBench {

    static final String TEMPLATE = """
            {"use-case-id": "motion-bench", "name": "Motion bench",
             "canvas": {"width": 1280, "height": 720, "fps": 30, "background": "#101820"},
             "fields": [{"name": "name", "required": true}],
             "segments": [
               {"id": "hello", "duration": 5, "layers": [
                 {"type": "shape", "shape": "rect", "x": 0, "y": 0, "width": 1280, "height": 720,
                  "fill": {"type": "linear", "from": [0, 0], "to": [1, 1], "colors": ["#1d3557", "#457b9d", "#a8dadc"]}},
                 {"type": "shape", "shape": "rounded-rect", "x": 140, "y": 420, "width": 1000, "height": 180,
                  "radius": 32, "fill": {"type": "radial", "colors": ["#ffffffee", "#ffffff99"]},
                  "shadow": {"color": "#00000080", "x": 0, "y": 10, "blur": 24}%1$s},
                 {"type": "shape", "shape": "ellipse", "x": 1040, "y": 80, "width": 140, "height": 140,
                  "fill": "#ffd166", "stroke": {"color": "#ffffff", "width": 4}%2$s},
                 {"type": "text", "text": "Hello {{name}}", "size": 96, "y": 120, "color": "#ffffff",
                  "shadow-color": "#00000080"%3$s},
                 {"type": "text", "text": "Your year with us, in ten seconds", "size": 48, "y": 470,
                  "color": "#1d3557"%4$s}]},
               {"id": "thanks", "duration": 5, "layers": [
                 {"type": "shape", "shape": "rect", "x": 0, "y": 0, "width": 1280, "height": 720,
                  "fill": {"type": "radial", "center": [0.5, 0.4], "radius": 0.8, "colors": ["#e63946", "#1d3557"]}},
                 {"type": "shape", "shape": "path", "path": "M0 60 L60 0 L120 60 L60 120 Z", "x": 580, "y": 120,
                  "width": 120, "height": 120, "fill": "#f1faee"%2$s},
                 {"type": "text", "text": "Thank you, {{name}}!", "size": 88, "y": "center", "color": "#f1faee"%5$s}]}
             ]}""";

    static final String[] ANIMATED = {
            ", \"keyframes\": [{\"time\": 0, \"y\": 200, \"opacity\": 0}, {\"time\": 0.8, \"y\": 0, \"opacity\": 1,"
                    + " \"easing\": \"cubic-bezier(0.2, 0.8, 0.2, 1)\"}]",
            ", \"keyframes\": [{\"time\": 0, \"rotation\": 0, \"scale\": 0.5}, {\"time\": 5, \"rotation\": 360,"
                    + " \"scale\": 1.2, \"easing\": \"ease-in-out\"}]",
            ", \"animate\": {\"in\": {\"type\": \"slide\", \"by\": \"letter\", \"from\": \"down\", \"stagger\": 0.05,"
                    + " \"duration\": 0.6}, \"out\": {\"type\": \"fade\", \"by\": \"word\", \"duration\": 0.4}}",
            ", \"animate\": {\"in\": {\"type\": \"blur\", \"by\": \"word\", \"stagger\": 0.15, \"duration\": 0.8}},"
                    + " \"keyframes\": [{\"time\": 0, \"scale\": 1}, {\"time\": 5, \"scale\": 1.08}]",
            ", \"animate\": {\"in\": {\"type\": \"pop\", \"by\": \"letter\", \"stagger\": 0.04, \"duration\": 0.5},"
                    + " \"out\": {\"type\": \"typewriter\", \"by\": \"letter\", \"stagger\": 0.03}}"};

    private GraphicsBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG")),
                Fonts.DEFAULT_DIRECTORY);
        ResolvedVideo animated = video(TEMPLATE.formatted((Object[]) ANIMATED));
        ResolvedVideo still = video(TEMPLATE.formatted("", "", "", "", ""));
        Path scratch = Files.createTempDirectory("pmedia-graphics-bench");
        if (args.length > 1 && args[1].equals("engine")) {
            // the graphics engine alone: its frames drawn and thrown away, no FFmpeg
            FilterGraphCompiler compiler = new FilterGraphCompiler("ffmpeg", new Fonts(Fonts.DEFAULT_DIRECTORY));
            for (int i = 0; i < runs; i++) {
                for (ResolvedVideo video : List.of(still, animated)) {
                    GraphicsInput input = compiler.compile(video, Map.of(), Files.createTempDirectory(scratch, "c"))
                            .graphics();
                    long start = System.nanoTime();
                    input.write(java.io.OutputStream.nullOutputStream());
                    System.out.printf(Locale.ROOT, "  engine only, %s: %.2f s for %d frames%n",
                            video == still ? "static" : "animated", (System.nanoTime() - start) / 1e9,
                            input.count());
                }
            }
            RenderBench.delete(scratch);
            return;
        }
        try {
            render(engine, still, scratch.resolve("warm"));
            render(engine, animated, scratch.resolve("warm2"));
            List<Double> animatedTimes = new ArrayList<>();
            List<Double> stillTimes = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                stillTimes.add(render(engine, still, scratch.resolve("s" + i)));
                animatedTimes.add(render(engine, animated, scratch.resolve("a" + i)));
            }
            double a = RenderBench.median(animatedTimes);
            double s = RenderBench.median(stillTimes);
            System.out.printf(Locale.ROOT, "graphics: 10 s 1280x720 30 fps, %d runs each, alternating%n", runs);
            System.out.printf(Locale.ROOT, "  static text and shapes:            median %.2f s  %s%n", s, stillTimes);
            System.out.printf(Locale.ROOT, "  animated text, keyframed shapes:   median %.2f s  %s%n", a,
                    animatedTimes);
            System.out.printf(Locale.ROOT, "  ratio animated / static: %.2f (goal at most 1.3)%n", a / s);
        } finally {
            RenderBench.delete(scratch);
        }
    }

    private static ResolvedVideo video(String json) {
        return video(json, "{\"personalization_fields\": {\"name\": \"Ada 王伟\"}}");
    }

    /** A bench's template, validated, resolved with the request {@code data}. */
    static ResolvedVideo video(String json, String data) {
        TemplateDefinition template = Templates.parse(json);
        List<String> problems = TemplateValidator.validate(template);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("bench template invalid: " + problems);
        }
        return TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data(data)));
    }

    private static double render(RenderEngine engine, ResolvedVideo video, Path work) throws Exception {
        Files.createDirectories(work);
        long start = System.nanoTime();
        engine.render(video, Map.of(), work, Duration.ofMinutes(5));
        return (System.nanoTime() - start) / 1e9;
    }
}
