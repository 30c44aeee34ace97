package io.pmedia.media.render;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Runs FFmpeg and FFprobe as child processes from an argument vector (no shell), with a time limit that kills the
 * whole process tree. Failure messages keep FFmpeg's last lines but never the engine's own paths.
 */
public final class FfmpegRunner {

    /** What ffprobe says of a file. */
    public record Probe(double durationSeconds, int width, int height, List<String> streamKinds) {

        public long count(String kind) {
            return streamKinds.stream().filter(kind::equals).count();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int STDERR_TAIL = 2000;

    private final String ffmpeg;
    private final String ffprobe;

    public FfmpegRunner(String ffmpeg, String ffprobe) {
        this.ffmpeg = ffmpeg;
        this.ffprobe = ffprobe;
    }

    /** Finds the binaries: a configured path, else the PATH; fails clearly when FFmpeg is not installed. */
    public static FfmpegRunner locate(String configuredDirectory) {
        return new FfmpegRunner(find("ffmpeg", configuredDirectory), find("ffprobe", configuredDirectory));
    }

    public String ffmpeg() {
        return ffmpeg;
    }

    /** Runs {@code command}; throws {@link RenderException} on a non-zero exit or when the time limit passes. */
    public void run(FfmpegCommand command, Path workDir, Duration limit) {
        Path stderr = workDir.resolve("ffmpeg.log");
        Process process;
        try {
            process = new ProcessBuilder(command.arguments())
                    .directory(workDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(stderr.toFile())
                    .start();
        } catch (IOException e) {
            throw new RenderException("cannot start ffmpeg: " + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(process);
                throw new RenderException("render exceeded its time limit of " + limit.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new RenderException("render was interrupted");
        }
        if (process.exitValue() != 0) {
            throw new RenderException("ffmpeg failed: " + tail(stderr, workDir));
        }
    }

    /** Duration, size and stream kinds of a media file. */
    public Probe probe(Path file) {
        List<String> command = List.of(ffprobe, "-v", "error", "-show_entries",
                "format=duration:stream=codec_type,width,height", "-of", "json", file.toString());
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out;
            try (InputStream in = process.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                kill(process);
                throw new RenderException("ffprobe could not read the output");
            }
            JsonNode json = JSON.readTree(out);
            List<String> kinds = new ArrayList<>();
            int width = 0;
            int height = 0;
            for (JsonNode stream : json.path("streams")) {
                kinds.add(stream.path("codec_type").asText());
                if ("video".equals(stream.path("codec_type").asText()) && width == 0) {
                    width = stream.path("width").asInt();
                    height = stream.path("height").asInt();
                }
            }
            return new Probe(json.path("format").path("duration").asDouble(), width, height, kinds);
        } catch (IOException e) {
            throw new RenderException("cannot run ffprobe: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RenderException("ffprobe was interrupted");
        }
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

    private static String tail(Path stderr, Path workDir) {
        try {
            String text = Files.readString(stderr, StandardCharsets.UTF_8);
            text = text.replace(workDir.toAbsolutePath().toString() + "/", "").strip();
            if (text.length() > STDERR_TAIL) {
                text = "..." + text.substring(text.length() - STDERR_TAIL);
            }
            return text.isEmpty() ? "no output" : text;
        } catch (IOException e) {
            return "no output";
        }
    }

    private static String find(String binary, String configuredDirectory) {
        if (configuredDirectory != null && !configuredDirectory.isBlank()) {
            Path candidate = Path.of(configuredDirectory, binary);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
            throw new RenderException(binary + " not found in " + configuredDirectory);
        }
        String path = System.getenv("PATH");
        for (String directory : (path == null ? "/usr/bin:/usr/local/bin" : path).split(File.pathSeparator)) {
            Path candidate = Path.of(directory, binary);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new RenderException(binary + " not found: install the OS package ffmpeg (apt-get install ffmpeg)");
    }
}
