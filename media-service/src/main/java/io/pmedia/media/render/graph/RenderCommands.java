package io.pmedia.media.render.graph;

import static io.pmedia.media.render.ffmpeg.FilterGraph.number;
import static io.pmedia.media.render.graph.OutputEncoding.PREVIEW_FILE;
import static io.pmedia.media.render.graph.OutputEncoding.THUMBNAIL_FILE;
import static io.pmedia.media.render.graph.OutputEncoding.VIDEO_FILE;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.media.template.OutputFormat;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

/**
 * The shapes of FFmpeg command the engine runs, each finishing a {@link SegmentGraph}: a full render (every output
 * and the thumbnail from one decode, optionally streamed), the chunk cache's pieces and sound, their assembly without
 * re-encoding, and the one-frame still of a preview.
 */
public final class RenderCommands {

    private RenderCommands() {
    }

    /** Every output of the video and its thumbnail; the first output also as an HLS stream when {@code stream}. */
    static FfmpegCommand full(SegmentGraph graph, List<Cue> cues, boolean stream) {
        ResolvedVideo video = graph.video;
        List<ResolvedVideo.Output> outputs = video.outputs();
        StringBuilder picture = new StringBuilder(graph.join());
        picture.append("format=yuv420p");
        if (video.burnInCaptions()) {
            String captions = graph.engineText.captions(cues, "captions");
            if (captions != null) {
                picture.append("[uncaptioned];[uncaptioned][").append(captions).append("]overlay=x=0:y=")
                        .append(graph.engineText.captionTop()).append(":eof_action=pass,format=yuv420p");
            }
        }
        // a streamed render's thumbnail is cut from its MP4 afterwards when the MP4 shows that frame as the canvas
        // does: a branch of the picture for it here holds back the first stream segment by 0.1-0.2 s
        boolean thumbnailInGraph = !thumbnailFromVideo(video, stream);
        int branches = outputs.size() + (thumbnailInGraph ? 1 : 0);
        if (branches > 1) {
            picture.append(",split=").append(branches);
        }
        for (int i = 0; i < outputs.size(); i++) {
            picture.append('[').append(OutputEncoding.videoLabel(video, i)).append(']');
        }
        if (thumbnailInGraph) {
            picture.append("[vthumb]");
        }
        graph.chains.add(picture.toString());
        if (thumbnailInGraph) {
            graph.chains.add("[vthumb]trim=start_frame=" + thumbnailFrame(video) + ":end_frame="
                    + (thumbnailFrame(video) + 1) + "[thumb]");
        }
        long sounding = OutputEncoding.sounding(video);
        StringBuilder sound = new StringBuilder(graph.sound());
        if (sounding > 1) {
            sound.append(",asplit=").append(sounding);
        }
        for (int i = 0; i < outputs.size(); i++) {
            if (outputs.get(i).format() != OutputFormat.GIF) {
                sound.append('[').append(OutputEncoding.audioLabel(video, i)).append(']');
            }
        }
        graph.chains.add(sound.toString());

        List<Path> files = new ArrayList<>();
        List<String> mapped = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            String file = outputFile(video, i);
            OutputEncoding.output(graph, i, outputs.get(i), file, mapped, stream);
            files.add(graph.workDir.resolve(file));
        }
        graph.args.addAll(List.of("-filter_complex", graph.filterComplex()));
        graph.args.addAll(mapped);
        if (thumbnailInGraph) {
            graph.args.addAll(OutputEncoding.thumbnail("[thumb]"));
        }
        return new FfmpegCommand(graph.args, graph.workDir, graph.workDir.resolve(VIDEO_FILE),
                graph.workDir.resolve(THUMBNAIL_FILE), video.durationSeconds(), graph.redactions, files)
                .withGraphics(graph.graphics());
    }

    /**
     * Frames {@code [from, to)} of the whole video as one video-only piece per output in {@code outputs} (indexes
     * into the video's outputs; {@link #pieceFile} names them), encoded as every piece is: the full graph, cut. Exact
     * for any template (transitions included); what comes before {@code from} is composed and dropped.
     */
    static FfmpegCommand range(SegmentGraph graph, int from, int to, List<Integer> outputs,
            List<ResolvedVideo.Output> all, int threads) {
        graph.chains.add(graph.join() + "format=yuv420p,trim=start_frame=" + from + ":end_frame=" + to
                + ",setpts=PTS-STARTPTS[piece]");
        return pieces(graph, outputs, all, from, to, graph.video.frames(), threads);
    }

    /**
     * The frames of a {@link SegmentGraph#window} (frames {@code [from, to)} of the whole video of {@code total}
     * frames, from the window's offset) as one video-only piece per output in {@code outputs}, encoded as every
     * piece is.
     */
    static FfmpegCommand window(SegmentGraph graph, int from, int to, int total, List<Integer> outputs,
            List<ResolvedVideo.Output> all, int threads) {
        graph.chains.add("[" + graph.segment(0, graph.video.segments().get(0)) + "]format=yuv420p,trim=end_frame="
                + (to - from) + ",setpts=PTS-STARTPTS[piece]");
        return pieces(graph, outputs, all, from, to, total, threads);
    }

    /** The file of output {@code output}'s piece in its run's directory. */
    static String pieceFile(int output) {
        return "piece-" + output + ".mp4";
    }

    /** The picture {@code [piece]} split into the pieces of {@code outputs}, each resized as its output is. */
    private static FfmpegCommand pieces(SegmentGraph graph, List<Integer> outputs, List<ResolvedVideo.Output> all,
            int from, int to, int total, int threads) {
        double seconds = (double) (to - from) / graph.fps;
        List<String> labels = new ArrayList<>();
        if (outputs.size() == 1) {
            labels.add("piece");
        } else {
            StringBuilder split = new StringBuilder("[piece]split=").append(outputs.size());
            for (int output : outputs) {
                split.append("[s").append(output).append(']');
                labels.add("s" + output);
            }
            graph.chains.add(split.toString());
        }
        List<Path> files = new ArrayList<>();
        List<String> mapped = new ArrayList<>();
        for (int k = 0; k < outputs.size(); k++) {
            int output = outputs.get(k);
            ResolvedVideo.Output shape = all.get(output);
            // a resampled piece, or the one a teaser's cut falls in, keeps the frames the output has there: the
            // fps filter's own count at the video's end, and a join's -t on copied H.264, let more through
            int frames = OutputEncoding.pieceFrames(shape, graph.fps, total, from, to);
            List<String> resize = OutputEncoding.resize(shape, graph.canvas.height(), graph.fps,
                    OutputEncoding.changesRate(shape, graph.fps) || frames < to - from ? frames : -1);
            String label = labels.get(k);
            if (!resize.isEmpty()) {
                graph.chains.add("[" + label + "]" + String.join(",", resize) + "[r" + output + "]");
                label = "r" + output;
            }
            mapped.addAll(List.of("-map", "[" + label + "]"));
            mapped.addAll(OutputEncoding.PIECE_ENCODING.apply(OutputEncoding.fps(shape, graph.fps)));
            if (threads > 0) {
                // how many cores this piece's encoder may take (pieces rendered side by side share them); the
                // bitstream's format does not depend on it
                mapped.addAll(List.of("-threads", Integer.toString(threads)));
            }
            mapped.addAll(List.of("-an", "-map_metadata", "-1", "-fflags", "+bitexact", "-f", "mp4",
                    pieceFile(output)));
            files.add(graph.workDir.resolve(pieceFile(output)));
        }
        graph.args.addAll(List.of("-filter_complex", graph.filterComplex()));
        graph.args.addAll(mapped);
        return new FfmpegCommand(graph.args, graph.workDir, files.get(0), files.get(0), seconds, graph.redactions,
                files).withGraphics(graph.graphics());
    }

    /**
     * The whole video's sound alone ({@code file}, AAC in MP4), encoded as a full render encodes it: kept once per
     * template version when it does not depend on the request, and muxed as it is at every join.
     */
    static FfmpegCommand sound(SegmentGraph graph, String file) {
        ResolvedVideo video = graph.video;
        graph.chains.add(graph.sound() + "[aout]");
        graph.args.addAll(List.of("-filter_complex", graph.filterComplex(), "-map", "[aout]"));
        graph.args.addAll(OutputEncoding.pieceSound());
        graph.args.addAll(List.of("-vn", "-map_metadata", "-1", "-fflags", "+bitexact", "-t",
                number(video.durationSeconds()), "-f", "mp4", file));
        Path sound = graph.workDir.resolve(file);
        return new FfmpegCommand(graph.args, graph.workDir, sound, sound, video.durationSeconds(),
                graph.redactions, List.of(sound));
    }

    /**
     * The pieces of output {@code output} listed in the concat list {@code pieces} (in {@code workDir}) joined as
     * they are, with {@code sound} (an encoded track): both copied, no encoding, cut to the output's length, as the
     * file a full render writes for it (and, for the main output when streaming, the HLS stream). The thumbnail is
     * {@link #thumbnail}'s, run beside it.
     */
    static FfmpegCommand assembly(String ffmpeg, ResolvedVideo video, int output, Path pieces, Path sound,
            boolean stream, Path workDir) {
        String file = outputFile(video, output);
        double duration = OutputEncoding.duration(video, video.outputs().get(output));
        List<String> args = new ArrayList<>(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel",
                "error", "-y", "-f", "concat", "-safe", "0", "-protocol_whitelist", "file", "-i",
                pieces.getFileName().toString(), "-protocol_whitelist", "file", "-format_whitelist", "mov,mp4", "-i",
                "file:" + sound.toAbsolutePath(), "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "copy",
                "-map_metadata", "-1", "-fflags", "+bitexact", "-t", number(duration)));
        if (stream && output == 0) {
            args.addAll(List.of("-f", "tee", OutputEncoding.mp4AndStream(file, "")));
        } else {
            args.addAll(List.of("-movflags", "+faststart", file));
        }
        Path written = workDir.resolve(file);
        return new FfmpegCommand(args, workDir, written, workDir.resolve(THUMBNAIL_FILE), duration, Map.of(),
                List.of(written));
    }

    /** The file of output {@code i} in a render's work directory: the main {@code video.mp4}, then by index. */
    static String outputFile(ResolvedVideo video, int i) {
        return i == 0 ? VIDEO_FILE : "output-" + i + "." + video.outputs().get(i).format().extension();
    }

    /** The thumbnail's frame: the middle of the first segment. */
    public static int thumbnailFrame(ResolvedVideo video) {
        return video.segments().get(0).frames() / 2;
    }

    /**
     * Whether a full render's thumbnail is cut from its MP4 once it is written ({@link #thumbnail}) rather than
     * split off the picture: for a streamed render (its first segment comes sooner; a render nobody watches keeps
     * the one process) whose main output shows the canvas as it is.
     */
    public static boolean thumbnailFromVideo(ResolvedVideo video, boolean stream) {
        ResolvedVideo.Output main = video.outputs().get(0);
        return stream && main.format() == OutputFormat.MP4 && main.duration() <= 0
                && OutputEncoding.showsCanvas(main, video.canvas());
    }

    /**
     * The thumbnail of an assembly: the frame {@code seconds} into {@code piece} (a seek to the keyframe before it,
     * then a decode of that second at most), as a JPEG in {@code workDir}.
     */
    static FfmpegCommand thumbnail(String ffmpeg, Path piece, double seconds, TemplateDefinition.Canvas canvas,
            Path workDir) {
        List<String> args = new ArrayList<>(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel",
                "error", "-y", "-ss", number(seconds), "-protocol_whitelist", "file", "-format_whitelist", "mov,mp4",
                "-i", "file:" + piece.toAbsolutePath()));
        if (canvas != null) {
            // a piece of a main output scaled from the canvas: the thumbnail is the canvas's size, as a full render's
            args.addAll(List.of("-vf", "scale=" + canvas.width() + ":" + canvas.height() + ":flags=bicubic,setsar=1"));
        }
        args.addAll(OutputEncoding.thumbnail("0:v"));
        Path thumbnail = workDir.resolve(THUMBNAIL_FILE);
        return new FfmpegCommand(args, workDir, thumbnail, thumbnail, 0, Map.of(), List.of(thumbnail));
    }

    /**
     * The opening of a stream from cached pieces before anything is rendered: the first {@code seconds} of {@code
     * piece} with {@code sound}, both as they are (stream copy), as the HLS segments and playlist an assembly writes
     * ({@link OutputEncoding#mp4AndStream}), so that the assembly later continues the same stream.
     */
    static FfmpegCommand opening(String ffmpeg, Path piece, Path sound, double seconds, Path workDir) {
        List<String> args = new ArrayList<>(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel",
                "error", "-y", "-protocol_whitelist", "file", "-format_whitelist", "mov,mp4", "-i",
                "file:" + piece.toAbsolutePath(), "-protocol_whitelist", "file", "-format_whitelist", "mov,mp4",
                "-i", "file:" + sound.toAbsolutePath(), "-map", "0:v", "-map", "1:a", "-c", "copy", "-t",
                number(seconds), "-map_metadata", "-1", "-fflags", "+bitexact"));
        args.addAll(OutputEncoding.stream());
        Path playlist = workDir.resolve(StreamPublisher.STREAM_FILE);
        return new FfmpegCommand(args, workDir, playlist, playlist, seconds, Map.of(), List.of(playlist));
    }

    /** The graph of the only segment, cut to frame {@code frame} and written as a JPEG. */
    static FfmpegCommand still(SegmentGraph graph, int frame) {
        String label = graph.segment(0, graph.video.segments().get(0));
        graph.chains.add("[" + label + "]trim=start_frame=" + frame + ":end_frame=" + (frame + 1)
                + ",format=yuv420p[still]");
        graph.args.addAll(List.of("-filter_complex", graph.filterComplex(), "-map", "[still]",
                "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2", "-update", "1", PREVIEW_FILE));
        Path still = graph.workDir.resolve(PREVIEW_FILE);
        return new FfmpegCommand(graph.args, graph.workDir, still, still, 0, graph.redactions, List.of(still))
                .withGraphics(graph.graphics());
    }
}
