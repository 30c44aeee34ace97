package io.pmedia.media.render;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Which processes are alive, from /proc (Linux): a killed render must leave none behind. */
public final class Processes {

    private Processes() {
    }

    /** The ids of live ffmpeg processes whose current directory is {@code dir}. */
    public static List<Long> ffmpegRunningIn(Path dir) {
        Path real;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            return List.of();
        }
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("ffmpeg")).orElse(false))
                .filter(p -> {
                    try {
                        return Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd")).equals(real);
                    } catch (IOException | UnsupportedOperationException e) {
                        return false;
                    }
                })
                .map(ProcessHandle::pid)
                .toList();
    }
}
