package io.pmedia.media.render.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.pmedia.media.render.Concurrently;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.ffmpeg.FilterGraph;
import io.pmedia.media.render.ffmpeg.Mp4Summary;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.render.graph.OutputEncoding;
import io.pmedia.media.render.graph.RenderCommands;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

/**
 * Turns a resolved video and the local files of its assets into an MP4 and a JPEG thumbnail in a work directory:
 * compile, run one FFmpeg process, check the result (duration, size, streams). Nothing here knows where a request came from (a
 * realtime request, a batch row). The caller owns the work directory and removes it afterwards. Thread-safe.
 */
public final class RenderEngine {

    /** What a render produced; both files are in the work directory. */
    public record RenderOutput(Path video, Path thumbnail, double durationSeconds, int width, int height,
            List<Path> outputs) {
    }

    /** How far the probed duration may stray from the timeline's (AAC frames round the sound up). */
    static final double DURATION_TOLERANCE = 0.1;

    private final FfmpegRunner runner;
    private final FilterGraphCompiler compiler;

    /** @throws RenderException when the fonts are missing */
    public RenderEngine(FfmpegRunner runner, Path fontDirectory) {
        this(runner, fontDirectory, Fonts.CustomFonts.NONE);
    }

    /** @throws RenderException when the built-in fonts are missing */
    public RenderEngine(FfmpegRunner runner, Path fontDirectory, Fonts.CustomFonts customFonts) {
        this.runner = runner;
        this.compiler = new FilterGraphCompiler(runner.ffmpeg(), new Fonts(fontDirectory, customFonts));
    }

    /**
     * The FFmpeg command for {@code video}, with its text files and asset links written into {@code workDir}.
     *
     * @param assets the local file of every URL of {@link ResolvedVideo#assets()}
     */
    public FfmpegCommand compile(ResolvedVideo video, Map<String, Path> assets, Path workDir) {
        return compiler.compile(video, assets, workDir);
    }

    /**
     * Renders {@code video}.
     *
     * @throws RenderException with a message fit for the vendor when FFmpeg fails, overruns {@code timeLimit}, or
     *         produces something other than the timeline asked for
     */
    public RenderOutput render(ResolvedVideo video, Map<String, Path> assets, Path workDir, Duration timeLimit) {
        return render(video, assets, List.of(), List.of(), workDir, timeLimit);
    }

    /**
     * Renders {@code video} with its speech and captions.
     *
     * @param speech the WAV of every {@link ResolvedVideo#speeches()}, in that order
     * @param cues its captions (drawn when the template burns them in)
     * @throws RenderException as {@link #render(ResolvedVideo, Map, Path, Duration)}
     */
    public RenderOutput render(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
            Path workDir, Duration timeLimit) {
        return render(video, assets, speech, cues, false, workDir, timeLimit);
    }

    /**
     * As {@link #render(ResolvedVideo, Map, List, List, Path, Duration)}; with {@code stream}, the main output is
     * also written as an HLS stream into {@code workDir} while it renders ({@link StreamPublisher#STREAM_FILE}).
     */
    public RenderOutput render(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
            boolean stream, Path workDir, Duration timeLimit) {
        FfmpegCommand command = compiler.compile(video, assets, speech, cues, stream, workDir);
        runner.run(command, timeLimit);
        for (Path output : command.outputs()) {
            if (!Files.isRegularFile(output) || size(output) == 0) {
                throw new RenderException("ffmpeg produced no " + output.getFileName() + " output");
            }
        }
        FfmpegCommand thumbnail = thumbnailAfter(video, stream, command);
        if (thumbnail != null) {
            runner.run(thumbnail, timeLimit);
        }
        return checked(video, command);
    }

    /**
     * The command that cuts a full render's thumbnail from its MP4 once {@code render} has written it; null when
     * {@code render} cuts it itself ({@link RenderCommands#thumbnailFromVideo}).
     */
    FfmpegCommand thumbnailAfter(ResolvedVideo video, boolean stream, FfmpegCommand render) {
        return RenderCommands.thumbnailFromVideo(video, stream)
                ? compiler.compileThumbnail(render.video(),
                        (double) RenderCommands.thumbnailFrame(video) / video.canvas().fps(), null, render.workDir())
                : null;
    }

    /** The result of {@code command}, checked against the timeline: streams, frame size, duration. */
    private static RenderOutput checked(ResolvedVideo video, FfmpegCommand command) {
        if (!Files.isRegularFile(command.video()) || !Files.isRegularFile(command.thumbnail())) {
            throw new RenderException("ffmpeg produced no video");
        }
        FfmpegRunner.Probe probe = summary(command);
        if (probe.count("video") != 1 || probe.count("audio") != 1) {
            throw new RenderException("the rendered file lacks a video or an audio stream");
        }
        int[] size = mainSize(video);
        if (probe.width() != size[0] || probe.height() != size[1]) {
            throw new RenderException("the rendered video is " + probe.width() + "x" + probe.height()
                    + " instead of " + size[0] + "x" + size[1]);
        }
        if (Math.abs(probe.durationSeconds() - video.durationSeconds()) > DURATION_TOLERANCE) {
            throw new RenderException("the rendered video lasts " + FilterGraph.number(probe.durationSeconds())
                    + " s instead of " + FilterGraph.number(video.durationSeconds()) + " s");
        }
        return new RenderOutput(command.video(), command.thumbnail(), probe.durationSeconds(), probe.width(),
                probe.height(), command.outputs());
    }

    /**
     * The frame size of the main output: the canvas, or the canvas scaled to the output's height with the width
     * following, rounded to even as FFmpeg's {@code scale=-2} rounds it.
     */
    static int[] mainSize(ResolvedVideo video) {
        int height = video.outputs().get(0).height();
        TemplateDefinition.Canvas canvas = video.canvas();
        if (!OutputEncoding.changesSize(video.outputs().get(0), canvas.height())) {
            return new int[]{canvas.width(), canvas.height()};
        }
        return new int[]{(int) Math.round((double) height * canvas.width() / (canvas.height() * 2.0)) * 2, height};
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Renders frames {@code [from, to)} of {@code video} as one video-only piece for each output in {@code outputs}
     * (indexes into its outputs) in {@code workDir}, each resized as its output is and encoded as every piece is (a
     * keyframe every second from its first frame).
     *
     * @param threads the cores each encoder may take (pieces rendered side by side share them); 0 for FFmpeg's choice
     * @return the pieces, in the order of {@code outputs}
     * @throws RenderException as a render would
     */
    public List<Path> renderRange(ResolvedVideo video, int from, int to, List<Integer> outputs, int threads,
            Map<String, Path> assets, Path workDir, Duration timeLimit) {
        FfmpegCommand command = compiler.compileRange(video, from, to, outputs, threads, assets, workDir);
        runner.run(command, timeLimit);
        command.outputs().forEach(RenderEngine::produced);
        return command.outputs();
    }

    /**
     * Renders the whole sound of {@code video} alone as AAC in an MP4 named {@code file} in {@code workDir}.
     *
     * @throws RenderException as a render would
     */
    public Path renderSound(ResolvedVideo video, String file, Map<String, Path> assets, List<Path> speech,
            Path workDir, Duration timeLimit) {
        FfmpegCommand command = compiler.compileSound(video, file, assets, speech, workDir);
        runner.run(command, timeLimit);
        return produced(command.video());
    }

    private static Path produced(Path file) {
        if (!Files.isRegularFile(file) || size(file) == 0) {
            throw new RenderException("ffmpeg produced no " + file.getFileName());
        }
        return file;
    }

    /**
     * Writes the stream's opening in {@code workDir} from a cached piece (the video's first) and its cached sound,
     * without encoding: their first {@code seconds} as HLS segments, which the assembly of the video continues.
     *
     * @throws RenderException when FFmpeg fails
     */
    public void streamOpening(Path piece, Path sound, double seconds, Path workDir, Duration timeLimit) {
        FfmpegCommand command = compiler.compileOpening(piece, sound, seconds, workDir);
        runner.run(command, timeLimit);
        produced(command.video());
    }

    /**
     * Joins the pieces of every output of {@code video} (each output's whole picture, in order, each piece starting
     * on a keyframe, all encoded alike) with {@code sound} without re-encoding into the files a full render writes
     * (and the main output's stream), and cuts the thumbnail from the main output's piece at the same time; checked
     * as a full render is.
     *
     * @param pieces per output, its pieces in order (a teaser has those up to its cut: the first ones)
     * @param starts the first frame of each piece in the video
     * @param sound the video's sound already encoded ({@link #renderSound}), muxed as it is
     * @throws RenderException as a render would
     */
    public RenderOutput assemble(ResolvedVideo video, List<List<Path>> pieces, List<Integer> starts, Path sound,
            boolean stream, Path workDir, Duration timeLimit) {
        List<FfmpegCommand> joins = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            StringBuilder list = new StringBuilder("ffconcat version 1.0\n");
            for (Path piece : pieces.get(i)) {
                list.append("file '").append(piece.toAbsolutePath().toString().replace("'", "'\\''")).append("'\n");
            }
            Path concat = workDir.resolve("pieces-" + i + ".ffconcat");
            try {
                Files.writeString(concat, list);
            } catch (IOException e) {
                throw new RenderException("the pieces' list cannot be written");
            }
            joins.add(compiler.compileAssembly(video, i, concat, sound, stream, workDir));
        }
        // the thumbnail is the middle frame of the first segment, as a full render cuts it (at the canvas's size)
        int middle = RenderCommands.thumbnailFrame(video);
        int holder = 0;
        while (holder + 1 < starts.size() && starts.get(holder + 1) <= middle) {
            holder++;
        }
        // from a piece of the canvas as it is when an output has one there, else from the main output's, scaled back
        int from = 0;
        for (int i = 0; i < pieces.size(); i++) {
            ResolvedVideo.Output output = video.outputs().get(i);
            if (OutputEncoding.showsCanvas(output, video.canvas()) && pieces.get(i).size() > holder) {
                from = i;
                break;
            }
        }
        boolean scaled = OutputEncoding.changesSize(video.outputs().get(from), video.canvas().height());
        FfmpegCommand thumbnail = compiler.compileThumbnail(pieces.get(from).get(holder),
                (double) (middle - starts.get(holder)) / video.canvas().fps(), scaled ? video.canvas() : null,
                workDir);
        List<Callable<FfmpegCommand>> runs = new ArrayList<>();
        joins.forEach(join -> runs.add(() -> runs(join, timeLimit)));
        runs.add(() -> runs(thumbnail, timeLimit));
        Concurrently.all(runs);
        List<Path> files = new ArrayList<>();
        for (FfmpegCommand join : joins) {
            files.add(produced(join.video()));
        }
        RenderOutput main = checked(video, joins.get(0));
        return new RenderOutput(main.video(), main.thumbnail(), main.durationSeconds(), main.width(), main.height(),
                files);
    }

    private FfmpegCommand runs(FfmpegCommand command, Duration timeLimit) {
        runner.run(command, timeLimit);
        return command;
    }

    /**
     * Draws a still ({@link ResolvedVideo#stillAt(double)}) as a JPEG in {@code workDir}, rendering only what its
     * frame needs.
     *
     * @param assets the local file of every URL of the still's {@link ResolvedVideo#assets()}
     * @throws RenderException as a render would
     */
    public Path still(ResolvedVideo.Still still, Map<String, Path> assets, Path workDir, Duration timeLimit) {
        FfmpegCommand command = compiler.compileStill(still, assets, workDir);
        runner.run(command, timeLimit);
        try {
            if (!Files.isRegularFile(command.video()) || !Mp4Summary.isJpeg(command.video())) {
                throw new RenderException("ffmpeg produced no picture");
            }
        } catch (IOException e) {
            throw new RenderException("the picture cannot be read back");
        }
        return command.video();
    }

    /** What the MP4 holds, read in-process (ffprobe would cost a process start per render). */
    private static FfmpegRunner.Probe summary(FfmpegCommand command) {
        try {
            FfmpegRunner.Probe probe = Mp4Summary.read(command.video());
            if (probe == null || !Mp4Summary.isJpeg(command.thumbnail())) {
                throw new RenderException("ffmpeg produced an unreadable video or thumbnail");
            }
            return probe;
        } catch (IOException e) {
            throw new RenderException("the rendered video cannot be read back");
        }
    }

    public FfmpegRunner runner() {
        return runner;
    }
}
