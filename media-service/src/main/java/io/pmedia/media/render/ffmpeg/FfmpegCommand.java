package io.pmedia.media.render.ffmpeg;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One FFmpeg invocation as an argument vector (never a shell string), to run with {@code workDir} as its current
 * directory: the graph names its text files, asset links and outputs relative to it.
 *
 * @param video the MP4 it writes
 * @param thumbnail the JPEG it writes
 * @param durationSeconds the video's length by construction
 * @param redactions what to write instead of names that appear in FFmpeg's messages (asset links become their
 *        URLs), so that a failure message makes sense to the vendor and shows none of the engine's files
 * @param outputs the file of every output of the video, in the template's order ({@code video} first)
 * @param graphics what the graphics engine writes to FFmpeg's standard input while it runs (its {@code pipe:0}
 *        input); null when the command reads nothing there
 */
public record FfmpegCommand(List<String> arguments, Path workDir, Path video, Path thumbnail,
        double durationSeconds, Map<String, String> redactions, List<Path> outputs, GraphicsInput graphics) {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=+,@%-]+");

    public FfmpegCommand {
        arguments = List.copyOf(arguments);
        redactions = Map.copyOf(redactions);
        outputs = List.copyOf(outputs);
    }

    public FfmpegCommand(List<String> arguments, Path workDir, Path video, Path thumbnail, double durationSeconds,
            Map<String, String> redactions, List<Path> outputs) {
        this(arguments, workDir, video, thumbnail, durationSeconds, redactions, outputs, null);
    }

    /** The same command with the graphics engine's frames on its standard input (null: none). */
    public FfmpegCommand withGraphics(GraphicsInput frames) {
        return new FfmpegCommand(arguments, workDir, video, thumbnail, durationSeconds, redactions, outputs, frames);
    }

    /** A command with one output, the video. */
    public FfmpegCommand(List<String> arguments, Path workDir, Path video, Path thumbnail, double durationSeconds,
            Map<String, String> redactions) {
        this(arguments, workDir, video, thumbnail, durationSeconds, redactions, List.of(video));
    }

    /** The command for a POSIX shell, for logs and for running it by hand ({@code cd workDir && ...}). */
    public String display() {
        StringBuilder out = new StringBuilder();
        for (String argument : arguments) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append(PLAIN.matcher(argument).matches() ? argument : "'" + argument.replace("'", "'\\''") + "'");
        }
        return out.toString();
    }
}
