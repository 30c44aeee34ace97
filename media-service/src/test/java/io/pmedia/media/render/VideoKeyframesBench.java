package io.pmedia.media.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.ResolvedVideo;

/**
 * Keyframes on a video layer, the two ways docs/decisions.md weighed ("Keyframes on videos"): a 10 s 1280x720 30 fps
 * template with a 640x360 video over a text, rendered (1) still, overlaid by FFmpeg as before; (2) with keyframes
 * (x, y, scale, rotation, opacity), drawn by the graphics engine from frames decoded by an FFmpeg of its own, as
 * shipped; (3) the FFmpeg side's candidate, made by hand from (1): per-frame expressions for the overlay's x and y,
 * a rotate with an angle expression and the opacity through geq (linear pieces, no scale: what FFmpeg 5.1 can do
 * frame by frame without a scale per frame), and (4) the same without the opacity (geq, its costly part). Alternating
 * runs, medians and ratios to (1).
 * Usage: java ... io.pmedia.media.render.VideoKeyframesBench [runs]
 */
public final class VideoKeyframesBench {

    static final String TEMPLATE = """
            {"use-case-id": "video-bench", "name": "Video bench",
             "canvas": {"width": 1280, "height": 720, "fps": 30, "background": "#101820"},
             "assets": {"videos": [{"name": "clip"}]},
             "segments": [{"id": "a", "duration": 10, "layers": [
               {"type": "text", "text": "Hello Ada", "size": 96, "y": 60, "color": "#ffffff"},
               {"type": "video", "asset": 0, "x": 320, "y": 180, "width": 640, "height": 360%s}]}]}""";

    static final String KEYFRAMES = ", \"keyframes\": [{\"time\": 0, \"x\": -400, \"opacity\": 0, \"rotation\": -10,"
            + " \"scale\": 0.8}, {\"time\": 1.5, \"x\": 0, \"opacity\": 1, \"rotation\": 0, \"scale\": 1,"
            + " \"easing\": \"ease-out\"}, {\"time\": 8, \"scale\": 1.1}, {\"time\": 10, \"y\": 120}]";

    static final String CLIP = "https://cdn.example.com/clip.mp4";

    private VideoKeyframesBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        FfmpegRunner runner = FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG"));
        FilterGraphCompiler compiler = new FilterGraphCompiler(runner.ffmpeg(), new Fonts(Fonts.DEFAULT_DIRECTORY));
        Path scratch = Files.createTempDirectory("pmedia-video-keyframes-bench");
        try {
            Path clip = Media.clip(scratch, "clip.mp4", 1280, 720, 10);
            Map<String, Path> assets = Map.of(CLIP, clip);
            ResolvedVideo still = video(TEMPLATE.formatted(""));
            ResolvedVideo keyframed = video(TEMPLATE.formatted(KEYFRAMES));
            Map<String, List<Double>> times = new LinkedHashMap<>();
            for (int i = -1; i < runs; i++) {
                Map<String, FfmpegCommand> commands = new LinkedHashMap<>();
                commands.put("still, overlaid by FFmpeg", compiler.compile(still, assets, work(scratch)));
                commands.put("keyframed, drawn by the engine", compiler.compile(keyframed, assets, work(scratch)));
                commands.put("moved by FFmpeg expressions", expressions(compiler.compile(still, assets,
                        work(scratch)), true));
                commands.put("the same without opacity", expressions(compiler.compile(still, assets,
                        work(scratch)), false));
                for (Map.Entry<String, FfmpegCommand> command : commands.entrySet()) {
                    long start = System.nanoTime();
                    runner.run(command.getValue(), Duration.ofMinutes(5));
                    if (i >= 0) { // the first round warms up
                        times.computeIfAbsent(command.getKey(), k -> new ArrayList<>())
                                .add((System.nanoTime() - start) / 1e9);
                    }
                }
            }
            double base = RenderBench.median(times.values().iterator().next());
            System.out.printf(Locale.ROOT, "video keyframes: 10 s 1280x720 30 fps, a 640x360 video, %d runs each%n",
                    runs);
            times.forEach((name, list) -> System.out.printf(Locale.ROOT, "  %-32s median %.2f s (x%.2f)  %s%n", name,
                    RenderBench.median(list), RenderBench.median(list) / base, list));
        } finally {
            RenderBench.delete(scratch);
        }
    }

    /**
     * The still command with the video moved by per-frame expressions, as the FFmpeg side would have built them from
     * the keyframes (here linear, by hand): x from -400 to 0 and opacity 0 to 1 over 1.5 s, rotation -10 to 0
     * degrees, y down 120 px from 8 s... as far as one overlay, one rotate and one geq go.
     */
    static FfmpegCommand expressions(FfmpegCommand still, boolean opacity) {
        List<String> arguments = new ArrayList<>(still.arguments());
        int at = arguments.indexOf("-filter_complex") + 1;
        String graph = arguments.get(at);
        String progress = "min(1\\,T/1.5)";
        String moved = graph
                .replace("setpts=PTS+0/TB", "setpts=PTS+0/TB,format=rgba,rotate=a=-10*(1-min(1\\,t/1.5))*PI/180"
                        + ":ow=hypot(iw\\,ih):oh=ow:c=none" + (opacity
                                ? ",geq=r=r(X\\,Y):g=g(X\\,Y):b=b(X\\,Y):a=alpha(X\\,Y)*" + progress
                                : ""));
        moved = moved.replaceFirst("overlay=x=[^:]*:y=[^:]*:eval=init", "overlay=x=320-400*(1-min(1\\\\,t/1.5))"
                + "+(640-w)/2:y=180+max(0\\\\,t-8)*60+(360-h)/2:eval=frame");
        if (moved.equals(graph) || !moved.contains("eval=frame") || !moved.contains("rotate")) {
            throw new IllegalStateException("the still graph changed shape: " + graph);
        }
        arguments.set(at, moved);
        return new FfmpegCommand(arguments, still.workDir(), still.video(), still.thumbnail(),
                still.durationSeconds(), still.redactions(), still.outputs(), still.graphics());
    }

    private static Path work(Path scratch) throws Exception {
        return Files.createTempDirectory(scratch, "w");
    }

    private static ResolvedVideo video(String json) {
        return GraphicsBench.video(json, "{\"global_assets\": {\"videos\": [\"" + CLIP + "\"]}}");
    }
}
