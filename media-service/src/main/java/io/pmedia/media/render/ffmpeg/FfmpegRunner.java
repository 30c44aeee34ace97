package io.pmedia.media.render.ffmpeg;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.media.render.RenderException;

/**
 * Runs FFmpeg and FFprobe as child processes from an argument vector (no shell), with a time limit that kills the
 * whole process tree. A failure's message keeps the end of FFmpeg's own account, with the engine's file names
 * replaced (asset links by their URLs) and any other path cut to its last part: it is shown to vendors. A runner
 * made {@link #niced(int) niced} starts them through {@code nice}, so a render yields the CPU to the service's own work.
 */
public final class FfmpegRunner {

    /** What ffprobe says of a media file. */
    public record Probe(double durationSeconds, int width, int height, List<Stream> streams) {

        public long count(String kind) {
            return streams.stream().filter(stream -> stream.kind().equals(kind)).count();
        }

        /** The kinds of the streams in order: {@code video}, {@code audio}, ... */
        public List<String> streamKinds() {
            return streams.stream().map(Stream::kind).toList();
        }
    }

    /** One stream: its kind ({@code video}, {@code audio}, ...), codec name, and frame size (0 for sound). */
    public record Stream(String kind, String codec, int width, int height) {
    }

    static final String INSTALL = "install the OS package ffmpeg";
    private static final Logger LOG = Logger.getLogger(FfmpegRunner.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MESSAGE_TAIL = 600;
    private static final Pattern ABSOLUTE_PATH = Pattern.compile("(?<![\\w.:/])(?:file:)?(?:/[^/\\s'\",:;]+)+/");
    /** FFmpeg's "[hls @ 0x55d0c0a8]" prefixes: they name memory addresses, nothing a vendor can act on. */
    private static final Pattern CONTEXT = Pattern.compile("\\[[\\w -]+ @ 0x[0-9a-f]+] ");

    private final String ffmpeg;
    private final String ffprobe;
    /** What the processes are started through: nothing, or {@code nice -n N}. */
    private final List<String> launcher;

    public FfmpegRunner(String ffmpeg, String ffprobe) {
        this(ffmpeg, ffprobe, List.of());
    }

    private FfmpegRunner(String ffmpeg, String ffprobe, List<String> launcher) {
        this.ffmpeg = ffmpeg;
        this.ffprobe = ffprobe;
        this.launcher = launcher;
    }

    /**
     * This runner with its processes started at {@code niceness} (0 to 19) above the service's own, through the OS's
     * {@code nice} (coreutils): a render is background work, and where it shares the cores with the service's API
     * (one media process, as the local stack runs it) the API's requests come first. 0: as the service. Without a
     * {@code nice} on the PATH the processes run as the service does, and a warning says so.
     *
     * @throws RenderException for a niceness outside 0 to 19
     */
    public FfmpegRunner niced(int niceness) {
        return niced(niceness, System.getenv("PATH"));
    }

    FfmpegRunner niced(int niceness, String pathVariable) {
        if (niceness < 0 || niceness > 19) {
            throw new RenderException("pmedia.media.render.nice must be from 0 to 19, not " + niceness);
        }
        if (niceness == 0) {
            return new FfmpegRunner(ffmpeg, ffprobe);
        }
        String nice;
        try {
            nice = onPath("nice", pathVariable);
        } catch (RenderException e) {
            LOG.warn("renders run at the service's own priority: no nice on the PATH (install coreutils, or set "
                    + "pmedia.media.render.nice to 0 to say so)");
            return new FfmpegRunner(ffmpeg, ffprobe);
        }
        return new FfmpegRunner(ffmpeg, ffprobe, List.of(nice, "-n", Integer.toString(niceness)));
    }

    /** {@code arguments} (the binary first) as this runner starts them. */
    List<String> launch(List<String> arguments) {
        if (launcher.isEmpty()) {
            return arguments;
        }
        List<String> launched = new ArrayList<>(launcher);
        launched.addAll(arguments);
        return launched;
    }

    /**
     * Finds the binaries: in {@code configured} (a directory holding both, or the path of the ffmpeg binary with
     * ffprobe beside it) when given, else on the PATH.
     *
     * @throws RenderException "ffmpeg not found: install the OS package ffmpeg" when they are absent
     */
    public static FfmpegRunner locate(String configured) {
        return locate(configured, System.getenv("PATH"));
    }

    static FfmpegRunner locate(String configured, String pathVariable) {
        if (configured != null && !configured.isBlank()) {
            Path given = Path.of(configured);
            Path directory = Files.isDirectory(given) ? given : given.getParent();
            Path ffmpeg = Files.isDirectory(given) ? given.resolve("ffmpeg") : given;
            Path ffprobe = directory == null ? Path.of("ffprobe") : directory.resolve("ffprobe");
            for (Path binary : List.of(ffmpeg, ffprobe)) {
                if (!Files.isExecutable(binary)) {
                    throw new RenderException(binary.getFileName() + " not found at " + binary + ": " + INSTALL
                            + " or correct the configured path");
                }
            }
            return new FfmpegRunner(ffmpeg.toString(), ffprobe.toString());
        }
        return new FfmpegRunner(onPath("ffmpeg", pathVariable), onPath("ffprobe", pathVariable));
    }

    private static String onPath(String binary, String pathVariable) {
        String path = pathVariable == null ? "/usr/local/bin:/usr/bin:/bin" : pathVariable;
        for (String directory : path.split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, binary))) {
                return Path.of(directory, binary).toString();
            }
        }
        throw new RenderException(binary + " not found: " + INSTALL);
    }

    public String ffmpeg() {
        return ffmpeg;
    }

    public String ffprobe() {
        return ffprobe;
    }

    /**
     * Runs {@code command} in its work directory.
     *
     * @throws RenderException on a non-zero exit, and when the time limit passes (the process tree is killed)
     */
    public void run(FfmpegCommand command, Duration limit) {
        Path log = command.workDir().resolve("ffmpeg.log");
        Process process;
        GraphicsInput graphics = command.graphics();
        try {
            process = new ProcessBuilder(launch(command.arguments()))
                    .directory(command.workDir().toFile())
                    .redirectInput(graphics == null
                            ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                            : ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new RenderException("ffmpeg could not be started: " + INSTALL);
        }
        GraphicsWriter writer = graphics == null ? null : GraphicsWriter.start(graphics, process);
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(process);
                throw new RenderException("render exceeded its time limit of " + seconds(limit) + " s");
            }
            if (writer != null) {
                writer.join();
            }
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new RenderException("render was interrupted");
        }
        if (writer != null && writer.refusal() != null) {
            throw new RenderException("the graphics engine refused " + writer.refusal().getMessage());
        }
        if (process.exitValue() != 0) {
            throw new RenderException("ffmpeg failed: " + sanitize(read(log), command));
        }
    }

    /** Duration, frame size and streams of a media file; the video size is that of its first video stream. */
    public Probe probe(Path file) {
        List<String> command = List.of(ffprobe, "-v", "error", "-show_entries",
                "format=duration:stream=codec_type,codec_name,width,height", "-of", "json", "file:" + file);
        try {
            Process process = new ProcessBuilder(launch(command))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            byte[] out;
            try (InputStream in = process.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill(process);
                throw new RenderException("ffprobe did not finish");
            }
            if (process.exitValue() != 0) {
                throw new RenderException("the rendered file cannot be read back");
            }
            JsonNode json = JSON.readTree(out);
            List<Stream> streams = new ArrayList<>();
            for (JsonNode stream : json.path("streams")) {
                streams.add(new Stream(stream.path("codec_type").asText(), stream.path("codec_name").asText(),
                        stream.path("width").asInt(), stream.path("height").asInt()));
            }
            Stream picture = streams.stream().filter(s -> s.kind().equals("video")).findFirst().orElse(null);
            return new Probe(json.path("format").path("duration").asDouble(), picture == null ? 0 : picture.width(),
                    picture == null ? 0 : picture.height(), List.copyOf(streams));
        } catch (IOException e) {
            throw new RenderException("ffprobe could not be run: " + INSTALL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RenderException("ffprobe was interrupted");
        }
    }

    /**
     * The last part of FFmpeg's messages, safe to show: the command's own names replaced (longest first), the work
     * directory removed, and any other absolute path cut to its file name.
     */
    static String sanitize(String stderr, FfmpegCommand command) {
        return sanitize(stderr, command.workDir(), command.redactions());
    }

    /** FFmpeg's messages of a process run in {@code dir}, its names replaced by {@code names}, as above. */
    static String sanitize(String stderr, Path dir, Map<String, String> names) {
        String text = stderr.strip();
        String workDir = dir.toAbsolutePath().toString();
        text = text.replace(workDir + File.separator, "").replace(workDir, "");
        List<Map.Entry<String, String>> redactions = new ArrayList<>(names.entrySet());
        redactions.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
        for (Map.Entry<String, String> redaction : redactions) {
            text = text.replace(redaction.getKey(), redaction.getValue());
        }
        text = ABSOLUTE_PATH.matcher(text).replaceAll("");
        text = CONTEXT.matcher(text).replaceAll("");
        text = text.replaceAll("\\s*\\n\\s*", "; ");
        if (text.length() > MESSAGE_TAIL) {
            text = "..." + text.substring(text.length() - MESSAGE_TAIL);
        }
        return text.isEmpty() ? "no message" : text;
    }

    static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String seconds(Duration limit) {
        long millis = limit.toMillis();
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : FilterGraph.number(millis / 1000.0);
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
