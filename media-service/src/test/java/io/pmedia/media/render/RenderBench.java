package io.pmedia.media.render;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.pmedia.events.RenderInput;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.ffmpeg.Mp4Summary;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;

/**
 * The render benchmark (not a test): renders the demo template {@code greeting} with a name, an offer and a
 * generated photo through the engine (resolve, compile, FFmpeg, MP4 check), and runs the bare FFmpeg command the
 * engine generated, alternating the two, and prints median wall times, the realtime factor and the engine's
 * overhead as a ratio. Run it with {@code bench/render/run.sh [runs]}; {@code PMEDIA_BENCH_KEEP=dir} keeps the
 * bare command's directory there, with {@code command.sh} to run it again.
 */
public final class RenderBench {

    static final String PHOTO = "https://bench.example/photo.png";
    /** The file of the engine's frames beside a bare command (raw RGBA, what the render pipes to FFmpeg). */
    static final String FRAMES = "frames.rgba";

    private RenderBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path templateFile = args.length > 1 ? Path.of(args[1]) : locate("deploy/local/templates/greeting.json");
        Path scratch = Files.createTempDirectory("pmedia-bench");
        try {
            run(runs, templateFile, scratch);
        } finally {
            delete(scratch);
        }
    }

    private static void run(int runs, Path templateFile, Path scratch) throws Exception {
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG")),
                Fonts.DEFAULT_DIRECTORY);
        TemplateDefinition template = Templates.JSON.readValue(Files.readString(templateFile),
                TemplateDefinition.class);
        Path photo = Media.image(scratch, "photo.png", 800, 800);
        Map<String, Path> assets = Map.of(PHOTO, photo);
        RenderInput input = RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": "Ada Lovelace", "offer": "20% off your next order"},
                 "global_assets": {"images": ["PHOTO"]}}""".replace("PHOTO", PHOTO)));

        // the bare command: what the engine generates, run as it is in a directory of its own
        Path bareDir = Files.createDirectories(scratch.resolve("bare"));
        FfmpegCommand bare = engine.compile(TemplateResolver.resolve(template, input), assets, bareDir);
        double seconds = bare.durationSeconds();
        // the frames the graphics engine draws (texts, shapes, lottie layers), drawn once into a file that the bare
        // command reads on its standard input: the bare side does all of FFmpeg's work, only not the drawing
        Path frames = frames(bare);

        engine(engine, template, input, assets, scratch.resolve("warm-up"));
        bare(bare, frames);

        List<Double> engineTimes = new ArrayList<>();
        List<Double> bareTimes = new ArrayList<>();
        List<Double> engineCpu = new ArrayList<>();
        List<Double> bareCpu = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Path work = scratch.resolve("engine-" + i);
            for (int turn = 0; turn < 2; turn++) {
                double cpu = childCpuSeconds();
                if ((i + turn) % 2 == 0) {
                    engineTimes.add(engine(engine, template, input, assets, work));
                    engineCpu.add(childCpuSeconds() - cpu);
                } else {
                    bareTimes.add(bare(bare, frames));
                    bareCpu.add(childCpuSeconds() - cpu);
                }
            }
            delete(work);
        }
        // the engine's own work, timed alone: what it adds to the FFmpeg process, free of the noise of the runs
        List<Double> ownTimes = new ArrayList<>();
        for (int i = 0; i < Math.max(runs, 20); i++) {
            Path work = Files.createDirectories(scratch.resolve("own-" + i));
            long started = System.nanoTime();
            engine.compile(TemplateResolver.resolve(template, input), assets, work);
            Mp4Summary.read(bare.video());
            Mp4Summary.isJpeg(bare.thumbnail());
            ownTimes.add((System.nanoTime() - started) / 1e9);
            delete(work);
        }
        double engineMedian = median(engineTimes);
        double bareMedian = median(bareTimes);
        String out = String.format(Locale.ROOT, """
                render benchmark, %s, %s (%d cores), %s
                template %s: %.1f s at %dx%d, %d fps, with name, offer and an 800x800 photo
                runs: %d of each, alternating, after one warm-up of each
                engine (resolve + compile + ffmpeg + MP4 check)     : median %.3f s (min %.3f, max %.3f), realtime x%.1f
                bare ffmpeg (the same argument vector, %s): median %.3f s (min %.3f, max %.3f), realtime x%.1f
                engine / bare: %.3f
                CPU of the ffmpeg process (user + sys): engine median %.2f s, bare median %.2f s
                engine's own work alone (resolve + compile + write text files + MP4 check): median %.1f ms
                command: %s
                """, LocalDate.now(), cpu(), Runtime.getRuntime().availableProcessors(), ffmpegVersion(engine),
                template.useCaseId(), seconds, template.canvas().width(), template.canvas().height(),
                template.canvas().fps(), runs, engineMedian, Collections.min(engineTimes),
                Collections.max(engineTimes), seconds / engineMedian,
                frames == null
                        ? "nothing drawn by the engine"
                        : "the engine's " + bare.graphics().count() + " frames read from a file",
                bareMedian, Collections.min(bareTimes),
                Collections.max(bareTimes), seconds / bareMedian, engineMedian / bareMedian, median(engineCpu),
                median(bareCpu), median(ownTimes) * 1000,
                bare.display());
        System.out.print(out);
        String keep = System.getenv("PMEDIA_BENCH_KEEP");
        if (keep != null && !keep.isBlank()) {
            // the bare command's whole directory (asset links copied as files), to run it again by hand
            Path target = Files.createDirectories(Path.of(keep));
            try (var files = Files.list(bare.workDir())) {
                for (Path file : files.toList()) {
                    Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.writeString(target.resolve("command.sh"), "cd \"$(dirname \"$0\")\" && " + bare.display()
                    + (frames == null ? "" : " < " + frames.getFileName()) + "\n");
        }
    }

    private static double engine(RenderEngine engine, TemplateDefinition template, RenderInput input,
            Map<String, Path> assets, Path work) throws IOException {
        Files.createDirectories(work);
        long started = System.nanoTime();
        ResolvedVideo video = TemplateResolver.resolve(template, input);
        engine.render(video, assets, work, Duration.ofSeconds(120));
        return (System.nanoTime() - started) / 1e9;
    }

    /**
     * The frames the engine pipes to a command (its {@link FfmpegCommand#graphics()}), drawn into
     * {@value #FRAMES} in the command's directory; null when the command has none.
     */
    static Path frames(FfmpegCommand command) throws IOException {
        if (command.graphics() == null) {
            return null;
        }
        Path file = command.workDir().resolve(FRAMES);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            command.graphics().write(out);
        }
        return file;
    }

    private static double bare(FfmpegCommand command, Path frames) throws IOException, InterruptedException {
        Files.deleteIfExists(command.video());
        Files.deleteIfExists(command.thumbnail());
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command.arguments()).directory(command.workDir().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(frames == null ? new File("/dev/null") : frames.toFile()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("the bare command failed");
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /**
     * CPU seconds used so far by this JVM's finished child processes (Linux: cutime + cstime of /proc/self/stat, in
     * clock ticks of 1/100 s). The difference across one render is its ffmpeg's CPU time: a figure that load from
     * other processes on the machine disturbs far less than wall time.
     */
    private static double childCpuSeconds() throws IOException {
        Path stat = Path.of("/proc/self/stat");
        if (!Files.isReadable(stat)) {
            return 0;
        }
        String text = Files.readString(stat);
        String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
        // after "pid (comm) ", field 3 (state) is index 0, so cutime (16) and cstime (17) are at 13 and 14
        return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) / 100.0;
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static String cpu() throws IOException {
        Path info = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(info)) {
            return System.getProperty("os.arch");
        }
        return Files.readAllLines(info).stream().filter(line -> line.startsWith("model name"))
                .map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst().orElse("unknown CPU");
    }

    static String ffmpegVersion(RenderEngine engine) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(engine.runner().ffmpeg(), "-version").redirectErrorStream(true).start();
        String first = new String(process.getInputStream().readAllBytes()).lines().findFirst().orElse("ffmpeg");
        process.waitFor();
        return first.replaceAll(" Copyright.*", "");
    }

    static Path locate(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Collections.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
