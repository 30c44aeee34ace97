package io.pmedia.media.render;

import java.nio.file.Path;
import java.util.List;

/**
 * One FFmpeg invocation as an argument vector (never a shell string), with the files it writes.
 *
 * @param textFiles files the engine wrote for drawtext, to clean up with the work directory
 */
public record FfmpegCommand(List<String> arguments, Path video, Path thumbnail, double durationSeconds,
        List<Path> textFiles) {

    /** The command line for logs and for running the same command by hand (benchmarks). */
    public String display() {
        StringBuilder out = new StringBuilder();
        for (String argument : arguments) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append(argument.matches("[A-Za-z0-9_./:=+,-]+")
                    ? argument
                    : "'" + argument.replace("'", "'\\''") + "'");
        }
        return out.toString();
    }
}
