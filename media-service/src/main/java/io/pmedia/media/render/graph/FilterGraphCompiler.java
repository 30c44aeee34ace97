package io.pmedia.media.render.graph;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.ffmpeg.Mp4Summary;
import io.pmedia.media.render.graphics.EngineText;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

/**
 * Compiles a resolved video into one FFmpeg invocation. Each segment is one chain of the filter graph: a base (a
 * colour, a still composed once and repeated, or a video), then its pictures overlaid and its texts drawn, then its
 * fades; the segments are concatenated, and the same pass encodes the H.264/AAC MP4 ({@code +faststart}) and cuts
 * the JPEG thumbnail from the middle of the first segment. A still is decoded once however often it is shown.
 * <p>
 * The work is shared by three rooms: {@link SegmentGraph} (the inputs and the filter graph of segments and
 * pictures, with {@link EngineText} for texts and captions and {@link SoundMix} for the sound), {@link
 * OutputEncoding} (the encoder and muxer settings of each output format) and {@link RenderCommands} (the shapes of
 * command this class hands out: a full render, the chunk cache's pieces and sound, their assembly, a still).
 * <p>
 * Safety: vendor text reaches FFmpeg only through files read with {@code textfile=} and {@code expansion=none};
 * assets are linked into the work directory under fixed names and opened with only the {@code file} protocol, a
 * list of allowed demuxers per kind, and a pixel bound, so that a hostile "image" (an HLS playlist, a decompression
 * bomb) cannot make FFmpeg read anything else or exhaust memory. The command names only files relative to the work
 * directory, besides the fonts.
 */
public final class FilterGraphCompiler {

    private final String ffmpeg;
    private final Fonts fonts;

    public FilterGraphCompiler(String ffmpeg, Fonts fonts) {
        this.ffmpeg = ffmpeg;
        this.fonts = fonts;
    }

    /**
     * Writes the text files and asset links into {@code workDir} and returns the command to run there.
     *
     * @param assets the local file of every URL of {@link ResolvedVideo#assets()}
     */
    public FfmpegCommand compile(ResolvedVideo video, Map<String, Path> assets, Path workDir) {
        return compile(video, assets, List.of(), List.of(), workDir);
    }

    /**
     * @param speech the synthesised WAV of every {@link ResolvedVideo#speeches()}, in that order
     * @param cues the captions, drawn on the picture when the template burns them in
     */
    public FfmpegCommand compile(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
            Path workDir) {
        return compile(video, assets, speech, cues, false, workDir);
    }

    /**
     * @param stream whether the main output is also written as an HLS stream while it renders ({@link #STREAM_FILE}
     *        and its segments of about {@value #STREAM_SEGMENT_SECONDS} s in {@code workDir}), from the same encode
     */
    public FfmpegCommand compile(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
            boolean stream, Path workDir) {
        return RenderCommands.full(SegmentGraph.of(ffmpeg, fonts, video, assets, speech, workDir), cues, stream);
    }

    /**
     * A command that draws the still's one frame as a JPEG ({@link #PREVIEW_FILE}) without rendering the rest.
     *
     * @param assets the local file of every URL of the still's {@link ResolvedVideo#assets()}
     */
    public FfmpegCommand compileStill(ResolvedVideo.Still still, Map<String, Path> assets, Path workDir) {
        return RenderCommands.still(SegmentGraph.of(ffmpeg, fonts, still.video(), assets, List.of(), workDir),
                still.frame());
    }

    /**
     * Frames {@code [from, to)} of {@code video} as one video-only MP4 piece for each of its outputs {@code
     * outputs} (indexes; in {@code workDir}, in that order among the command's outputs), each resized as its output
     * is and encoded as every piece is, to be joined by {@link #compileAssembly}. When the frames lie inside one segment,
     * away from its transitions, only that segment is composed, from the first of them on (its video background
     * opened there, when it is known to last that long); else the whole graph is, and cut.
     *
     * @param threads the cores its encoder may take; 0 for FFmpeg's choice
     * @param assets the local file of every URL of {@link ResolvedVideo#assets()}
     */
    public FfmpegCommand compileRange(ResolvedVideo video, int from, int to, List<Integer> outputs, int threads,
            Map<String, Path> assets, Path workDir) {
        for (int k = 0; k < video.segments().size(); k++) {
            int start = video.startFrame(k);
            ResolvedVideo.Segment segment = video.segments().get(k);
            int alone = start + (k > 0 ? video.segments().get(k - 1).transitionFrames() : 0);
            if (from >= alone && to <= start + segment.frames() - segment.transitionFrames()
                    && opens(segment.background(), from - start, video.canvas().fps(), assets)) {
                ResolvedVideo part = new ResolvedVideo(video.canvas(), List.of(segment.withTransition(null)),
                        ResolvedVideo.Audio.silence());
                return RenderCommands.window(SegmentGraph.window(ffmpeg, fonts, part, assets, workDir, from - start),
                        from, to, video.frames(), outputs, video.outputs(), threads);
            }
        }
        return RenderCommands.range(SegmentGraph.of(ffmpeg, fonts, video, assets, List.of(), workDir), from, to,
                outputs, video.outputs(), threads);
    }

    /**
     * Whether a window can open {@code background} at frame {@code offset}: anything but a video, or a video known
     * (from its MP4 header) to last past that frame. A seek past a clip's end yields no frame at all, where the full
     * render holds the clip's last one; a clip of unknown length is composed from its start instead.
     */
    private static boolean opens(ResolvedVideo.Background background, int offset, int fps, Map<String, Path> assets) {
        if (offset == 0 || background.url() == null || background.kind() != AssetKind.VIDEO) {
            return true;
        }
        try {
            FfmpegRunner.Probe probe = Mp4Summary.read(assets.get(background.url()));
            return probe != null && probe.durationSeconds() > (double) (offset + 1) / fps;
        } catch (IOException | RuntimeException e) {
            // not an MP4 we can read: its length is unknown, so the window is not taken (the answer, not a failure)
            return false;
        }
    }

    /**
     * The whole sound of {@code video} alone, as AAC in an MP4 ({@code file} in {@code workDir}).
     *
     * @param speech the WAV of every {@link ResolvedVideo#speeches()}, in that order
     */
    public FfmpegCommand compileSound(ResolvedVideo video, String file, Map<String, Path> assets, List<Path> speech,
            Path workDir) {
        return RenderCommands.sound(SegmentGraph.soundOf(ffmpeg, fonts, video, assets, speech, workDir), file);
    }

    /**
     * Joins the pieces of output {@code output} listed (in order) in the concat list {@code pieces} (in {@code
     * workDir}) without re-encoding, with the whole video's sound, into the file (and, for the main output, the
     * stream) a full render writes for that output.
     *
     * @param sound the video's sound already encoded ({@link #compileSound}), copied as it is
     */
    public FfmpegCommand compileAssembly(ResolvedVideo video, int output, Path pieces, Path sound, boolean stream,
            Path workDir) {
        return RenderCommands.assembly(ffmpeg, video, output, pieces, sound, stream, workDir);
    }

    /**
     * The thumbnail of an assembly: the frame {@code seconds} into {@code piece}, as a full render names it; scaled
     * to {@code canvas} unless that is null (a piece of the canvas as it is).
     */
    public FfmpegCommand compileThumbnail(Path piece, double seconds, TemplateDefinition.Canvas canvas,
            Path workDir) {
        return RenderCommands.thumbnail(ffmpeg, piece, seconds, canvas, workDir);
    }

    /**
     * The stream's opening from a cached piece and sound: their first {@code seconds} as the HLS segments and
     * playlist ({@link #STREAM_FILE}) an assembly of the same video then continues.
     */
    public FfmpegCommand compileOpening(Path piece, Path sound, double seconds, Path workDir) {
        return RenderCommands.opening(ffmpeg, piece, sound, seconds, workDir);
    }

    /**
     * What the piece of output {@code output} holding frames {@code [from, to)} of {@code video} is made with, for
     * its cache key.
     */
    public static String pieceShape(ResolvedVideo video, int output, int from, int to) {
        return OutputEncoding.pieceShape(video.outputs().get(output), video.canvas().height(), video.canvas().fps(),
                video.frames(), from, to);
    }

    /**
     * How many frames the piece of output {@code output} holding frames {@code [from, to)} of {@code video} has: none
     * past a teaser's cut.
     */
    public static int pieceFrames(ResolvedVideo video, int output, int from, int to) {
        return OutputEncoding.pieceFrames(video.outputs().get(output), video.canvas().fps(), video.frames(), from, to);
    }
}
