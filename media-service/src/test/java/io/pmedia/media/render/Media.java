package io.pmedia.media.render;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test media made with FFmpeg at test time (nothing binary is committed), and frames read back. */
public final class Media {

    private Media() {
    }

    public static void ffmpeg(String... args) {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error",
                "-y"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + ": " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A still test pattern. */
    public static Path image(Path dir, String name, int width, int height) {
        Path file = dir.resolve(name);
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=" + width + "x" + height, "-frames:v", "1", file.toString());
        return file;
    }

    /** A moving test pattern with a counter. */
    public static Path clip(Path dir, String name, int width, int height, double seconds) {
        Path file = dir.resolve(name);
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=" + width + "x" + height + ":rate=25:duration=" + seconds,
                "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", file.toString());
        return file;
    }

    /** A short sine tone. */
    public static Path sound(Path dir, String name, double seconds) {
        Path file = dir.resolve(name);
        ffmpeg("-f", "lavfi", "-i", "sine=frequency=330:duration=" + seconds, file.toString());
        return file;
    }

    /** The frame at {@code seconds} as 8-bit grey pixels. */
    public static byte[] greyFrame(Path video, double seconds, int width, int height) {
        return output(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-ss", Double.toString(seconds), "-i",
                video.toString(), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-s", width + "x" + height,
                "-"));
    }

    /** Every frame of the video, in order, as 8-bit grey pixels of {@code width} x {@code height}. */
    public static List<byte[]> greyFrames(Path video, int width, int height) {
        byte[] pixels = output(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", video.toString(), "-f",
                "rawvideo", "-pix_fmt", "gray", "-s", width + "x" + height, "-"));
        List<byte[]> frames = new java.util.ArrayList<>();
        for (int at = 0; at + width * height <= pixels.length; at += width * height) {
            frames.add(java.util.Arrays.copyOfRange(pixels, at, at + width * height));
        }
        return frames;
    }

    /** What {@code command} writes on its standard output. */
    private static byte[] output(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] pixels = process.getInputStream().readAllBytes();
            process.waitFor();
            return pixels;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** How many pixels of a grey frame are brighter than {@code level}. */
    public static long brighterThan(byte[] pixels, int level) {
        long count = 0;
        for (byte pixel : pixels) {
            if ((pixel & 0xff) > level) {
                count++;
            }
        }
        return count;
    }
}
