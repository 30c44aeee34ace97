package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The tests' way to run a tool (node, FFmpeg) to its end and fail with its output when it fails. */
final class Processes {

    private Processes() {
    }

    /** Runs {@code command}, its output and errors merged, and returns them once it exited 0 within the time. */
    static String run(List<String> command, int seconds) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(seconds, TimeUnit.SECONDS)).as("%s ended within %d s", command, seconds).isTrue();
        String text = new String(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("%s: %s", command, text).isZero();
        return text;
    }
}
