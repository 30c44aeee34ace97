package io.pmedia.media.render.ffmpeg;

import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.pmedia.graphics.draw.VideoFrames;

/**
 * A video layer's frames for the graphics engine (a video with keyframes), decoded to raw RGBA by an FFmpeg of its
 * own: {@code command} writes them on its standard output. Started when the engine first reads them (the layer
 * shows), killed when the engine closes them, so that a render that ends or fails leaves no decoder behind. A decode
 * that fails (FFmpeg exits with an error) is an IOException carrying FFmpeg's sanitized message, the linked file's
 * name {@code link} replaced by "the video"; the engine names the layer.
 */
public final class DecodedVideo implements VideoFrames {

    private final List<String> command;
    private final Path workDir;
    private final String link;

    public DecodedVideo(List<String> command, Path workDir, String link) {
        this.command = List.copyOf(command);
        this.workDir = workDir;
        this.link = link;
    }

    public List<String> command() {
        return command;
    }

    @Override
    public InputStream open() throws IOException {
        Path log = workDir.resolve(link + ".log");
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(log.toFile())
                .start();
        return new FilterInputStream(process.getInputStream()) {

            @Override
            public int read() throws IOException {
                return ended(super.read());
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                return ended(super.read(bytes, offset, length));
            }

            /** At the end of the frames, whether FFmpeg ended them because it failed. */
            private int ended(int read) throws IOException {
                if (read >= 0) {
                    return read;
                }
                try {
                    if (process.waitFor() != 0) {
                        throw new IOException("the video cannot be decoded: " + FfmpegRunner.sanitize(
                                FfmpegRunner.read(log), workDir, Map.of("file:" + link, "the video")));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while the video was decoded");
                }
                return read;
            }

            @Override
            public void close() throws IOException {
                process.destroyForcibly();
                super.close();
            }
        };
    }
}
