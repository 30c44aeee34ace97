package io.pmedia.media.render.ffmpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.Media;
import io.pmedia.media.render.Processes;
import io.pmedia.media.render.RenderException;

class FfmpegRunnerTest {

    final FfmpegRunner runner = FfmpegRunner.locate(null);

    @Test
    void ffmpegIsFoundOnThePathOrWhereConfigured() {
        assertThat(Path.of(runner.ffmpeg()).getFileName().toString()).isEqualTo("ffmpeg");
        assertThat(FfmpegRunner.locate(Path.of(runner.ffmpeg()).getParent().toString()).ffprobe())
                .endsWith("ffprobe");
        assertThat(FfmpegRunner.locate(runner.ffmpeg()).ffmpeg()).isEqualTo(runner.ffmpeg());
    }

    @Test
    void withoutFfmpegTheMessageSaysWhatToInstall(@TempDir Path empty) {
        assertThatThrownBy(() -> FfmpegRunner.locate(null, empty.toString()))
                .isInstanceOf(RenderException.class)
                .hasMessage("ffmpeg not found: install the OS package ffmpeg");
        assertThatThrownBy(() -> FfmpegRunner.locate(empty.toString()))
                .hasMessage("ffmpeg not found at " + empty.resolve("ffmpeg")
                        + ": install the OS package ffmpeg or correct the configured path");
    }

    @Test
    void aFailureKeepsFfmpegsReasonWithoutTheEnginesPaths(@TempDir Path work) {
        FfmpegCommand command = new FfmpegCommand(List.of(runner.ffmpeg(), "-hide_banner", "-loglevel", "error",
                "-i", "file:asset-0", "-f", "null", "-"), work, work.resolve("v.mp4"), work.resolve("t.jpg"), 1,
                Map.of("file:asset-0", "asset https://cdn.example.com/x.png"));

        assertThatThrownBy(() -> runner.run(command, Duration.ofSeconds(30)))
                .isInstanceOf(RenderException.class)
                .hasMessage("ffmpeg failed: asset https://cdn.example.com/x.png: No such file or directory");
    }

    @Test
    void messagesAreCleanedOfPaths(@TempDir Path work) {
        FfmpegCommand command = new FfmpegCommand(List.of(), work, work.resolve("v.mp4"), work.resolve("t.jpg"), 1,
                Map.of("file:asset-1", "asset https://a.example/b.mp4"));
        String stderr = """
                [mov @ 0x55] moov atom not found
                file:asset-1: Invalid data found when processing input
                %s/text-0-1-0.txt: Permission denied
                Error opening /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf and /var/lib/pmedia/cache/ab.data
                """.formatted(work);

        assertThat(FfmpegRunner.sanitize(stderr, command)).isEqualTo(
                "moov atom not found; asset https://a.example/b.mp4: Invalid data found when processing "
                        + "input; text-0-1-0.txt: Permission denied; Error opening DejaVuSans.ttf and ab.data");
        assertThat(FfmpegRunner.sanitize("x".repeat(2000), command)).hasSize(603).startsWith("...");
    }

    @Test
    void aProcessOverItsTimeLimitIsKilledWithItsTree(@TempDir Path work) {
        FfmpegCommand endless = endless(work);
        long started = System.nanoTime();

        assertThatThrownBy(() -> runner.run(endless, Duration.ofMillis(700)))
                .isInstanceOf(RenderException.class)
                .hasMessage("render exceeded its time limit of 0.7 s");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(Processes.ffmpegRunningIn(work)).isEmpty();
    }

    @Test
    void aNicedRunnerStartsFfmpegThatMuchLowerThanTheService(@TempDir Path work) {
        FfmpegCommand endless = endless(work);
        FfmpegRunner niced = runner.niced(7);
        CompletableFuture<Void> run = CompletableFuture.runAsync(() -> niced.run(endless, Duration.ofSeconds(30)));
        try {
            List<Long> running = await().atMost(Duration.ofSeconds(10))
                    .until(() -> Processes.ffmpegRunningIn(work), pids -> !pids.isEmpty());

            assertThat(niceness(running.get(0))).isEqualTo(Math.min(19, niceness(ProcessHandle.current().pid()) + 7));
        } finally {
            Processes.ffmpegRunningIn(work).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
            run.exceptionally(failure -> null).join();
        }
    }

    @Test
    void aRunnerNicedByZeroRunsAsTheServiceAndTheRangeIsChecked() {
        assertThat(runner.niced(0).launch(List.of("ffmpeg", "-version"))).containsExactly("ffmpeg", "-version");
        assertThat(runner.niced(10).launch(List.of("ffmpeg", "-version"))).endsWith("-n", "10", "ffmpeg", "-version");
        assertThatThrownBy(() -> runner.niced(20)).isInstanceOf(RenderException.class)
                .hasMessage("pmedia.media.render.nice must be from 0 to 19, not 20");
        assertThatThrownBy(() -> runner.niced(-1)).isInstanceOf(RenderException.class);
    }

    @Test
    void withoutNiceOnThePathTheProcessesRunAsTheService(@TempDir Path empty) {
        assertThat(runner.niced(10, empty.toString()).launch(List.of("ffmpeg"))).containsExactly("ffmpeg");
    }

    /** An FFmpeg that runs until it is stopped, in {@code work}. */
    private FfmpegCommand endless(Path work) {
        return new FfmpegCommand(List.of(runner.ffmpeg(), "-hide_banner", "-nostdin", "-re", "-f", "lavfi", "-i",
                "testsrc=size=64x64:rate=10", "-f", "null", "-"), work, work.resolve("v.mp4"), work.resolve("t.jpg"), 1,
                Map.of());
    }

    /** The nice value of a process (field 19 of /proc/PID/stat; its name, field 2, may hold spaces). */
    private static int niceness(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void probeReportsDurationSizeAndStreams(@TempDir Path dir) {
        Path clip = dir.resolve("clip.mp4");
        Media.ffmpeg("-f", "lavfi", "-i", "testsrc=size=160x90:rate=25:duration=1", "-f", "lavfi", "-i",
                "anullsrc=r=48000:cl=stereo", "-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset",
                "ultrafast", "-c:a", "aac", clip.toString());

        FfmpegRunner.Probe probe = runner.probe(clip);

        assertThat(probe.durationSeconds()).isCloseTo(1.0, within(0.1));
        assertThat(probe.width()).isEqualTo(160);
        assertThat(probe.height()).isEqualTo(90);
        assertThat(probe.streamKinds()).containsExactly("video", "audio");
        assertThat(probe.streams().get(0)).isEqualTo(new FfmpegRunner.Stream("video", "h264", 160, 90));
    }

    @Test
    void probingSomethingThatIsNotMediaFails(@TempDir Path dir) throws Exception {
        Path text = java.nio.file.Files.writeString(dir.resolve("note.txt"), "hello");

        assertThatThrownBy(() -> runner.probe(text)).isInstanceOf(RenderException.class)
                .hasMessage("the rendered file cannot be read back");
    }
}
