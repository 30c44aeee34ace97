package io.pmedia.media.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.template.ResolvedVideo;

/**
 * How alike two renders are, as a viewer would judge them: the SSIM of every frame (FFmpeg's ssim filter) and the
 * sound's decoded samples.
 */
public final class Likeness {

    /** The sample rate sound is compared at. */
    public static final int RATE = 48_000;

    private Likeness() {
    }

    /** SSIM of every frame ("All") of two videos, frame by frame in order; as many values as both have frames. */
    public static List<Double> ssim(Path a, Path b, Path dir) {
        Path stats = dir.resolve("ssim-" + System.nanoTime() + ".log");
        run(dir, "ffmpeg", "-hide_banner", "-loglevel", "error", "-i", a.toString(), "-i", b.toString(), "-lavfi",
                "ssim=stats_file=" + stats.getFileName(), "-f", "null", "-");
        List<Double> values = new ArrayList<>();
        try {
            Matcher all = Pattern.compile("All:([0-9.]+)").matcher(Files.readString(stats));
            while (all.find()) {
                values.add(Double.parseDouble(all.group(1)));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return values;
    }

    /** How many video frames a file holds, decoded. */
    public static int frames(Path video) {
        String out = run(video.getParent(), "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", video.toString());
        // a transport stream names its video stream twice (in its program and on its own)
        return Integer.parseInt(out.strip().lines().findFirst().orElseThrow().strip());
    }

    /** The sound decoded to mono 16-bit samples at {@link #RATE} (the encoder's priming already skipped). */
    public static short[] samples(Path media) {
        Path pcm = media.resolveSibling(media.getFileName() + "." + System.nanoTime() + ".pcm");
        run(media.getParent(), "ffmpeg", "-hide_banner", "-loglevel", "error", "-i", media.toString(), "-vn", "-ac",
                "1", "-ar", Integer.toString(RATE), "-f", "s16le", "-c:a", "pcm_s16le", pcm.toString());
        try {
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(pcm)).order(ByteOrder.LITTLE_ENDIAN);
            short[] samples = new short[bytes.remaining() / 2];
            bytes.asShortBuffer().get(samples);
            return samples;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The level of each window of {@code windowSamples} samples (RMS, in dB below full scale; -120 for silence).
     */
    public static List<Double> levels(short[] samples, int windowSamples) {
        List<Double> levels = new ArrayList<>();
        for (int start = 0; start + windowSamples <= samples.length; start += windowSamples) {
            double sum = 0;
            for (int i = start; i < start + windowSamples; i++) {
                sum += (double) samples[i] * samples[i];
            }
            double rms = Math.sqrt(sum / windowSamples) / 32768.0;
            levels.add(rms <= 1e-6 ? -120.0 : 20 * Math.log10(rms));
        }
        return levels;
    }

    /** The longest run of consecutive samples within {@code threshold} of zero from {@code from} to {@code to}. */
    public static int longestSilence(short[] samples, int from, int to, int threshold) {
        int longest = 0;
        int run = 0;
        for (int i = Math.max(0, from); i < Math.min(samples.length, to); i++) {
            run = Math.abs(samples[i]) <= threshold ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    /**
     * Asserts that {@code cached} is {@code full} to a viewer: the same frame count (the video's) and length, every
     * frame alike (SSIM >= 0.98), and the sound's level in every audible 100 ms within half a decibel.
     */
    public static void assertSameVideo(Path cached, Path full, ResolvedVideo video, Path dir) {
        assertSameVideo(cached, full, video, dir, 0.98);
    }

    /** The same, with every frame's SSIM at least {@code least}. */
    public static void assertSameVideo(Path cached, Path full, ResolvedVideo video, Path dir, double least) {
        assertThat(Likeness.frames(cached)).isEqualTo(video.frames());
        assertSameVideo(cached, full, dir, least);
    }

    /**
     * Asserts that {@code cached} is {@code full} to a viewer: the same frame count and length, every frame alike
     * (SSIM >= 0.98), and the sound's level in every audible 100 ms within half a decibel.
     */
    public static void assertSameVideo(Path cached, Path full, Path dir) {
        assertSameVideo(cached, full, dir, 0.98);
    }

    /** {@link #assertSameVideo(Path, Path, Path)} with every frame's SSIM at least {@code least}. */
    public static void assertSameVideo(Path cached, Path full, Path dir, double least) {
        int frames = Likeness.frames(full);
        assertThat(Likeness.frames(cached)).isEqualTo(frames);
        FfmpegRunner ffmpeg = FfmpegRunner.locate(null);
        assertThat(ffmpeg.probe(cached).durationSeconds()).isCloseTo(ffmpeg.probe(full).durationSeconds(),
                within(1.0 / 30));
        List<Double> ssim = Likeness.ssim(cached, full, dir);
        assertThat(ssim).hasSize(frames);
        assertThat(ssim).allSatisfy(value -> assertThat(value).isGreaterThanOrEqualTo(least));
        List<Double> levels = Likeness.levels(Likeness.samples(cached), Likeness.RATE / 10);
        List<Double> expected = Likeness.levels(Likeness.samples(full), Likeness.RATE / 10);
        assertThat(levels).hasSameSizeAs(expected);
        for (int i = 0; i < levels.size(); i++) {
            if (expected.get(i) > -60) {
                assertThat(levels.get(i)).as("level of 100 ms window %d", i).isCloseTo(expected.get(i),
                        within(0.5));
            }
        }
    }

    private static String run(Path dir, String... command) {
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
