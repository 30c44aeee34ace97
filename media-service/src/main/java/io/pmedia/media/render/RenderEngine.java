package io.pmedia.media.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.pmedia.media.template.ResolvedVideo;

/**
 * Turns a resolved video and its fetched assets into an MP4 and a thumbnail in a work directory: compile, run,
 * check. The caller owns the work directory (and removes it).
 */
public final class RenderEngine {

    /** What a render produced. */
    public record RenderOutput(Path video, Path thumbnail, double durationSeconds, int width, int height) {
    }

    private final FfmpegRunner runner;
    private final Path fontDir;

    public RenderEngine(FfmpegRunner runner, Path fontDir) {
        this.runner = runner;
        this.fontDir = fontDir;
        Fonts.check(fontDir);
    }

    public FfmpegCommand compile(ResolvedVideo video, Map<String, Path> assets, Path workDir) {
        return RenderCompiler.compile(video, assets, workDir, fontDir, runner.ffmpeg());
    }

    public RenderOutput render(ResolvedVideo video, Map<String, Path> assets, Path workDir, Duration limit) {
        FfmpegCommand command = compile(video, assets, workDir);
        runner.run(command, workDir, limit);
        if (!Files.isRegularFile(command.video()) || !Files.isRegularFile(command.thumbnail())) {
            throw new RenderException("ffmpeg produced no video");
        }
        FfmpegRunner.Probe probe = runner.probe(command.video());
        if (probe.count("video") != 1 || probe.count("audio") != 1) {
            throw new RenderException("the rendered file lacks a video or an audio stream");
        }
        return new RenderOutput(command.video(), command.thumbnail(), probe.durationSeconds(), probe.width(),
                probe.height());
    }

    public FfmpegRunner runner() {
        return runner;
    }
}
