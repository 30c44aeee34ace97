package io.pmedia.media.render.ffmpeg;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;

import io.pmedia.graphics.FrameRenderer;
import io.pmedia.graphics.FrameStream;
import io.pmedia.graphics.Scene;
import io.pmedia.graphics.text.FontChain;

/**
 * What the graphics engine draws for one FFmpeg command: the frames of {@code scene} that {@code frames} lists
 * (ascending; a picture that holds is one frame, the graph times each), written as raw RGBA to FFmpeg's standard input
 * (its {@code pipe:0} input), with the template's fonts ({@code fonts}: file by the name the scene uses) before the Noto
 * fallback chain. Drawn while FFmpeg runs: no frame is written to disk.
 */
public record GraphicsInput(Scene scene, long[] frames, Map<String, Path> fonts) {

    public GraphicsInput {
        frames = frames.clone();
        fonts = Map.copyOf(fonts);
    }

    /** The frames listed, ascending (a copy). */
    @Override
    public long[] frames() {
        return frames.clone();
    }

    /** How many frames the stream carries. */
    public int count() {
        return frames.length;
    }

    /** Draws and writes every frame; the renderer lives on the calling thread (Skia's objects are not shared). */
    public void write(OutputStream out) throws IOException {
        try (FrameRenderer renderer = new FrameRenderer(scene, FontChain.of(fonts))) {
            FrameStream.write(renderer, frames, out);
        }
    }
}
