package io.pmedia.engagement.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

/**
 * One FFmpeg run of the share pages' images (the email GIF, the poster of a render on view), its arguments a list
 * (never a shell), its output in {@code dir/ffmpeg.log}; a run that outlives {@code limit} is killed.
 */
final class Ffmpeg {

    private static final Logger LOG = Logger.getLogger(Ffmpeg.class);

    private Ffmpeg() {
    }

    /** What is made in a scratch directory. */
    interface Work<T> {
        T in(Path dir) throws IOException, InterruptedException;
    }

    /**
     * {@code work} in a scratch directory of its own under {@code workDir} (deleted afterwards), while holding
     * {@code turn} (one making at a time per replica); {@code busy}'s answer when the turn does not come within
     * {@code wait}.
     */
    static <T> T inTurn(Semaphore turn, Duration wait, Supplier<T> busy, Path workDir, String name, Work<T> work) {
        Path dir = workDir.resolve(name + "-" + UUID.randomUUID());
        try {
            if (!turn.tryAcquire(wait.toSeconds(), TimeUnit.SECONDS)) {
                return busy.get();
            }
            try {
                Files.createDirectories(dir);
                return work.in(dir);
            } finally {
                turn.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.debugf("could not clean %s: %s", dir, e.getMessage());
        }
    }

    /**
     * Runs {@code ffmpeg -v error -nostdin -y <arguments>} and checks that it wrote {@code output}.
     *
     * @throws IllegalStateException naming {@code what} when it fails, writes nothing or takes too long
     */
    static void run(String ffmpeg, Path dir, List<String> arguments, Path output, Duration limit, String what)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ffmpeg, "-v", "error", "-nostdin", "-y"));
        command.addAll(arguments);
        Path log = dir.resolve("ffmpeg.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("ffmpeg did not make " + what + " in time");
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(output)) {
            throw new IllegalStateException("ffmpeg could not make " + what + ": " + Files.readString(log).strip());
        }
    }
}
