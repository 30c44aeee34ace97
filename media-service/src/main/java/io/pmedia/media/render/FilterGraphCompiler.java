package io.pmedia.media.render;

import static io.pmedia.common.error.Messages.abbreviate;
import static io.pmedia.media.render.FilterGraph.color;
import static io.pmedia.media.render.FilterGraph.floor;
import static io.pmedia.media.render.FilterGraph.number;
import static io.pmedia.media.render.FilterGraph.value;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.AudioType;
import io.pmedia.media.template.OutputFormat;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TextFont;

/**
 * Compiles a resolved video into one FFmpeg invocation. Each segment is one chain of the filter graph: a base (a
 * colour, a still composed once and repeated, or a video), then its pictures overlaid and its texts drawn, then its
 * fades; the segments are concatenated, and the same pass encodes the H.264/AAC MP4 ({@code +faststart}) and cuts
 * the JPEG thumbnail from the middle of the first segment. A still is decoded once however often it is shown.
 * <p>
 * Safety: vendor text reaches FFmpeg only through files read with {@code textfile=} and {@code expansion=none};
 * assets are linked into the work directory under fixed names and opened with only the {@code file} protocol, a
 * list of allowed demuxers per kind, and a pixel bound, so that a hostile "image" (an HLS playlist, a decompression
 * bomb) cannot make FFmpeg read anything else or exhaust memory. The command names only files relative to the work
 * directory, besides the fonts.
 */
public final class FilterGraphCompiler {

    /** The longest URL as a vendor would recognise it in a message. */
    private static final int SHOWN = 100;

    static final String IMAGE_FORMATS = "png_pipe,jpeg_pipe,webp_pipe,gif,bmp_pipe,tiff_pipe";
    static final String VIDEO_FORMATS = "mov,mp4,matroska,webm,avi,gif";
    static final String AUDIO_FORMATS = "mp3,ogg,wav,flac,aac,mov,matroska";
    /** Largest picture a decoder accepts (about 8K x 5K): a small file must not unpack into gigabytes. */
    static final long MAX_PIXELS = 40_000_000L;
    static final int AUDIO_RATE = 48_000;
    static final String VIDEO_FILE = "video.mp4";
    static final String THUMBNAIL_FILE = "thumbnail.jpg";
    static final String PREVIEW_FILE = "preview.jpg";
    /** The local HLS playlist of a streamed render, and its segments' names. */
    public static final String STREAM_FILE = "stream.m3u8";
    static final String STREAM_SEGMENTS = "stream-%05d.ts";
    static final int STREAM_SEGMENT_SECONDS = 1;
    /** Margins of texts placed at an edge, as parts of the canvas width and height. */
    static final double MARGIN_X = 0.06;
    static final double MARGIN_Y = 0.08;
    /** How much closer a moving picture gets: a fifth. */
    static final String MOTION = "0.2";

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
        Compilation compilation = new Compilation(video, assets, speech, cues, workDir);
        compilation.stream = stream;
        return compilation.command();
    }

    /**
     * A command that draws the still's one frame as a JPEG ({@link #PREVIEW_FILE}) without rendering the rest.
     *
     * @param assets the local file of every URL of the still's {@link ResolvedVideo#assets()}
     */
    public FfmpegCommand compileStill(ResolvedVideo.Still still, Map<String, Path> assets, Path workDir) {
        return new Compilation(still.video(), assets, List.of(), List.of(), workDir).still(still.frame());
    }

    /**
     * Renders {@code segments} of {@code video} (by index) each as a video-only MP4 piece named {@code files} (in
     * the same order) in {@code workDir}, to be joined by {@link #compileAssembly}.
     *
     * @param assets the local file of every URL those segments show
     */
    public FfmpegCommand compilePieces(ResolvedVideo video, List<Integer> segments, List<String> files,
            Map<String, Path> assets, Path workDir) {
        List<ResolvedVideo.Segment> chosen = segments.stream().map(k -> video.segments().get(k)).toList();
        ResolvedVideo part = new ResolvedVideo(video.canvas(), chosen, ResolvedVideo.Audio.silence());
        return new Compilation(part, assets, List.of(), List.of(), workDir).pieces(files);
    }

    /**
     * Joins the pieces listed (in order) in the concat list {@code pieces} (in {@code workDir}) without
     * re-encoding, with the whole video's sound, into the MP4 and thumbnail (and the stream) a full render writes.
     *
     * @param speech the WAV of every {@link ResolvedVideo#speeches()}, in that order
     */
    public FfmpegCommand compileAssembly(ResolvedVideo video, Path pieces, Path firstPiece, Map<String, Path> assets,
            List<Path> speech, boolean stream, Path workDir) {
        Compilation compilation = new Compilation(video, assets, speech, List.of(), workDir, pieces,
                firstPiece.toAbsolutePath());
        compilation.stream = stream;
        return compilation.assembly();
    }

    /**
     * The H.264 settings of a segment piece, the same for every piece of every render: cached pieces and new ones
     * join only when they agree. A keyframe every second, so that the joined video streams in 1 s segments.
     */
    static final java.util.function.IntFunction<List<String>> PIECE_ENCODING = fps -> List.of("-c:v", "libx264",
            "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-g", Integer.toString(fps * 2),
            "-force_key_frames", "expr:gte(t,n_forced*" + STREAM_SEGMENT_SECONDS + ")");

    /** The encoder settings a cached piece was made with, for its cache key. */
    public static String pieceEncoding(int fps) {
        return String.join(" ", PIECE_ENCODING.apply(fps));
    }

    /** The state of one compilation: arguments, graph chains, and the labels still to be consumed. */
    private final class Compilation {

        private final ResolvedVideo video;
        private final TemplateDefinition.Canvas canvas;
        private final Path workDir;
        private final List<String> args = new ArrayList<>();
        private final List<String> chains = new ArrayList<>();
        private final Map<String, Deque<String>> sources = new HashMap<>();
        private final Map<String, String> redactions = new LinkedHashMap<>();
        private final List<String> speechInputs = new ArrayList<>();
        private final List<Cue> cues;
        private boolean stream;
        private boolean soundOnly;
        private final int fps;
        private int inputs;

        Compilation(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
                Path workDir) {
            this(video, assets, speech, cues, workDir, null);
        }

        /**
         * @param pieces a concat list of the video's picture, already encoded, as the first input (the assembly of
         *        a cached render): then only the sound's assets are inputs
         */
        Compilation(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
                Path workDir, Path pieces) {
            this(video, assets, speech, cues, workDir, pieces, null);
        }

        Compilation(ResolvedVideo video, Map<String, Path> assets, List<Path> speech, List<Cue> cues,
                Path workDir, Path pieces, Path thumbnailSource) {
            this.video = video;
            this.canvas = video.canvas();
            this.fps = canvas.fps();
            this.workDir = workDir;
            this.cues = cues;
            args.addAll(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y"));
            if (pieces != null) {
                args.addAll(List.of("-f", "concat", "-safe", "0", "-protocol_whitelist", "file", "-i",
                        pieces.getFileName().toString()));
                inputs++;
                // the thumbnail: the first piece opened again at its middle frame (a seek, not a decode of all)
                int middle = video.segments().get(0).frames() / 2;
                args.addAll(List.of("-ss", number((double) middle / fps), "-protocol_whitelist", "file", "-i",
                        "file:" + thumbnailSource));
                inputs++;
                Map<String, Path> sound = new LinkedHashMap<>();
                if (video.audio().url() != null) {
                    sound.put(video.audio().url(), assets.get(video.audio().url()));
                }
                soundOnly = true;
                inputs(sound);
            } else {
                inputs(assets);
            }
            for (int i = 0; i < speech.size(); i++) {
                String name = "speech-" + i + ".wav";
                link(speech.get(i), workDir.resolve(name));
                args.addAll(List.of("-protocol_whitelist", "file", "-format_whitelist", "wav", "-i", "file:" + name));
                speechInputs.add((inputs++) + ":a");
            }
        }

        FfmpegCommand command() {
            List<ResolvedVideo.Output> outputs = video.outputs();
            StringBuilder picture = new StringBuilder(join());
            picture.append("format=yuv420p");
            if (video.burnInCaptions()) {
                burnIn(picture);
            }
            picture.append(",split=").append(outputs.size() + 1);
            for (int i = 0; i < outputs.size(); i++) {
                picture.append('[').append(videoLabel(i)).append(']');
            }
            chains.add(picture.append("[vthumb]").toString());
            int thumbnailFrame = video.segments().get(0).frames() / 2;
            chains.add("[vthumb]trim=start_frame=" + thumbnailFrame + ":end_frame=" + (thumbnailFrame + 1)
                    + "[thumb]");
            long sounding = outputs.stream().filter(o -> o.format() != OutputFormat.GIF).count();
            StringBuilder sound = new StringBuilder(audio());
            if (sounding > 1) {
                sound.append(",asplit=").append(sounding);
            }
            for (int i = 0; i < outputs.size(); i++) {
                if (outputs.get(i).format() != OutputFormat.GIF) {
                    sound.append('[').append(audioLabel(i)).append(']');
                }
            }
            chains.add(sound.toString());

            List<Path> files = new ArrayList<>();
            List<String> mapped = new ArrayList<>();
            for (int i = 0; i < outputs.size(); i++) {
                String file = i == 0 ? VIDEO_FILE : "output-" + i + "." + outputs.get(i).format().extension();
                output(i, outputs.get(i), file, mapped);
                files.add(workDir.resolve(file));
            }
            args.addAll(List.of("-filter_complex", String.join(";", chains)));
            args.addAll(mapped);
            args.addAll(List.of("-map", "[thumb]", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2",
                    "-update", "1", THUMBNAIL_FILE));
            return new FfmpegCommand(args, workDir, workDir.resolve(VIDEO_FILE), workDir.resolve(THUMBNAIL_FILE),
                    video.durationSeconds(), redactions, files);
        }

        /**
         * Every segment as a video-only MP4 of its own ({@code files}, in order), encoded exactly alike, each
         * starting on a keyframe, so that they join without re-encoding.
         */
        FfmpegCommand pieces(List<String> files) {
            List<String> mapped = new ArrayList<>();
            for (int k = 0; k < video.segments().size(); k++) {
                chains.add("[" + segment(k, video.segments().get(k)) + "]format=yuv420p[piece" + k + "]");
                mapped.addAll(List.of("-map", "[piece" + k + "]"));
                mapped.addAll(PIECE_ENCODING.apply(fps));
                mapped.addAll(List.of("-an", "-map_metadata", "-1", "-fflags", "+bitexact", "-f", "mp4",
                        files.get(k)));
            }
            args.addAll(List.of("-filter_complex", String.join(";", chains)));
            args.addAll(mapped);
            Path first = workDir.resolve(files.get(0));
            return new FfmpegCommand(args, workDir, first, first, video.durationSeconds(), redactions,
                    files.stream().map(workDir::resolve).toList());
        }

        /**
         * The pieces joined as they are (stream copy) with the whole video's sound encoded in one go, as the MP4
         * (and, when streaming, the HLS stream), and the thumbnail cut from the middle of the first segment.
         */
        FfmpegCommand assembly() {
            chains.add(audio() + "[aout]");
            // the sound is encoded here alone, on the critical path: AAC's fast coder (the default search costs
            // several times more for no audible gain at 128 kb/s)
            args.addAll(List.of("-filter_complex", String.join(";", chains), "-map", "0:v", "-map", "[aout]",
                    "-c:v", "copy", "-c:a", "aac", "-aac_coder", "fast", "-b:a", "128k", "-ar",
                    Integer.toString(AUDIO_RATE),
                    "-map_metadata", "-1", "-fflags", "+bitexact", "-t", number(video.durationSeconds())));
            if (stream) {
                args.addAll(List.of("-f", "tee", "[f=mp4:movflags=+faststart]" + VIDEO_FILE + "|[f=hls:hls_time="
                        + STREAM_SEGMENT_SECONDS + ":hls_list_size=0:hls_playlist_type=event"
                        + ":hls_segment_type=mpegts:hls_segment_filename=" + STREAM_SEGMENTS + "]" + STREAM_FILE));
            } else {
                args.addAll(List.of("-movflags", "+faststart", VIDEO_FILE));
            }
            args.addAll(List.of("-map", "1:v", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2",
                    "-update", "1", THUMBNAIL_FILE));
            return new FfmpegCommand(args, workDir, workDir.resolve(VIDEO_FILE), workDir.resolve(THUMBNAIL_FILE),
                    video.durationSeconds(), redactions);
        }

        /** The graph of the only segment, cut to frame {@code frame} and written as a JPEG. */
        FfmpegCommand still(int frame) {
            String label = segment(0, video.segments().get(0));
            chains.add("[" + label + "]trim=start_frame=" + frame + ":end_frame=" + (frame + 1)
                    + ",format=yuv420p[still]");
            args.addAll(List.of("-filter_complex", String.join(";", chains), "-map", "[still]", "-frames:v", "1",
                    "-c:v", "mjpeg", "-q:v", "3", "-f", "image2", "-update", "1", PREVIEW_FILE));
            Path still = workDir.resolve(PREVIEW_FILE);
            return new FfmpegCommand(args, workDir, still, still, 0, redactions, List.of(still));
        }

        /**
         * The segments one after the other: concatenated, or passed into each other by xfade where a segment has
         * a transition (xfade wants one time base on both sides). Returns the graph up to a trailing comma.
         */
        private String join() {
            List<ResolvedVideo.Segment> segments = video.segments();
            boolean transitions = segments.stream().anyMatch(s -> s.transition() != null);
            if (!transitions) {
                StringBuilder concat = new StringBuilder();
                for (int k = 0; k < segments.size(); k++) {
                    concat.append('[').append(segment(k, segments.get(k))).append(']');
                }
                return concat.append(segments.size() > 1 ? "concat=n=" + segments.size() + ":v=1:a=0," : "")
                        .toString();
            }
            String joined = null;
            int frames = 0;
            for (int k = 0; k < segments.size(); k++) {
                String label = "t" + k;
                chains.add("[" + segment(k, segments.get(k)) + "]format=yuv420p,settb=expr=1/" + fps + "[" + label
                        + "]");
                if (joined == null) {
                    joined = label;
                    frames = segments.get(k).frames();
                    continue;
                }
                ResolvedVideo.Transition transition = segments.get(k - 1).transition();
                String next = "j" + k;
                if (transition == null) {
                    chains.add("[" + joined + "][" + label + "]concat=n=2:v=1:a=0[" + next + "]");
                } else {
                    chains.add("[" + joined + "][" + label + "]xfade=transition=" + transition.type() + ":duration="
                            + number((double) transition.frames() / fps) + ":offset="
                            + number((double) (frames - transition.frames()) / fps) + "[" + next + "]");
                    frames -= transition.frames();
                }
                frames += segments.get(k).frames();
                joined = next;
            }
            return "[" + joined + "]";
        }

        /** Each caption cue drawn at the bottom, on a dark box, while it is shown. */
        private void burnIn(StringBuilder picture) {
            int size = Math.max(12, canvas.height() / 18);
            int margin = (int) Math.round(canvas.height() * MARGIN_Y);
            for (int i = 0; i < cues.size(); i++) {
                Cue cue = cues.get(i);
                TextLayout.Laid laid = TextLayout.fit(cue.text(), fonts.awt(TextFont.DEFAULT.fontName()), size, 8,
                        (int) Math.round(canvas.width() * (1 - 2 * MARGIN_X)), 1);
                if (laid.lines().isEmpty() || laid.lines().get(0).isBlank()) {
                    continue;
                }
                String file = "caption-" + i + ".txt";
                write(workDir.resolve(file), laid.lines().get(0));
                picture.append(",drawtext=fontfile=").append(value(fonts.file(TextFont.DEFAULT.fontName()).toString()))
                        .append(":textfile=").append(value(file))
                        .append(":expansion=none:fontsize=").append(laid.size())
                        .append(":fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=").append(laid.size() / 4)
                        .append(":x=").append(value("(w-text_w)/2"))
                        .append(":y=").append(value("h-" + margin + "-text_h"))
                        .append(":enable=").append(value("gte(t," + number(cue.start()) + ")*lt(t,"
                                + number(cue.end()) + ")"));
            }
        }

        /** The picture of output {@code i}: {@code vout} when it is the only one. */
        private String videoLabel(int i) {
            return video.outputs().size() == 1 ? "vout" : "v" + i;
        }

        /** The sound of output {@code i}: {@code aout} when it is the only one with sound. */
        private String audioLabel(int i) {
            long sounding = video.outputs().stream().filter(o -> o.format() != OutputFormat.GIF).count();
            return sounding == 1 ? "aout" : "a" + i;
        }

        /** The chain and the arguments of output {@code i}. */
        private void output(int i, ResolvedVideo.Output output, String file, List<String> mapped) {
            List<String> filters = new ArrayList<>();
            if (output.height() > 0 && output.height() != canvas.height()) {
                filters.add("scale=-2:" + output.height() + ":flags=bicubic,setsar=1");
            }
            if (output.fps() > 0 && output.fps() != fps) {
                filters.add("fps=" + output.fps());
            }
            double duration = output.duration() > 0
                    ? Math.min(output.duration(), video.durationSeconds())
                    : video.durationSeconds();
            if (output.duration() > 0) {
                filters.add("trim=duration=" + number(duration));
            }
            if (output.format() == OutputFormat.GIF) {
                filters.add("split[g" + i + "a][g" + i + "b];[g" + i + "a]palettegen=stats_mode=diff[g" + i
                        + "p];[g" + i + "b][g" + i + "p]paletteuse=dither=bayer");
            }
            String picture = videoLabel(i);
            if (!filters.isEmpty()) {
                chains.add("[" + picture + "]" + String.join(",", filters) + "[o" + i + "]");
                picture = "o" + i;
            }
            mapped.addAll(List.of("-map", "[" + picture + "]"));
            if (output.format() != OutputFormat.GIF) {
                String sound = "[" + audioLabel(i) + "]";
                if (output.duration() > 0) {
                    chains.add(sound + "atrim=duration=" + number(duration) + "[at" + i + "]");
                    sound = "[at" + i + "]";
                }
                mapped.addAll(List.of("-map", sound));
            }
            switch (output.format()) {
                case MP4 -> {
                    mapped.addAll(List.of("-c:v", "libx264", "-preset", "veryfast", "-crf", "23",
                            "-pix_fmt", "yuv420p", "-g", Integer.toString((output.fps() > 0 ? output.fps() : fps) * 2),
                            "-c:a", "aac", "-b:a", "128k", "-ar", Integer.toString(AUDIO_RATE)));
                    if (!(i == 0 && stream)) {
                        mapped.addAll(List.of("-movflags", "+faststart"));
                    }
                }
                case WEBM -> mapped.addAll(List.of("-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                        "-row-mt", "1", "-tile-columns", "2", "-b:v", "0", "-crf", "36", "-pix_fmt", "yuv420p",
                        "-c:a", "libopus", "-b:a", "96k", "-ar", Integer.toString(AUDIO_RATE)));
                case GIF -> mapped.addAll(List.of("-loop", "0", "-f", "gif"));
            }
            mapped.addAll(List.of("-map_metadata", "-1", "-fflags", "+bitexact", "-t", number(duration)));
            if (i == 0 && stream) {
                // one encode, two muxers: the MP4 and, as it renders, the HLS stream (a keyframe every segment)
                // the first segment is half as long, so that a player can start sooner
                mapped.addAll(List.of("-force_key_frames",
                        "expr:gte(t,if(lte(n_forced,1),n_forced*0.5,(n_forced-1)*" + STREAM_SEGMENT_SECONDS + "))",
                        "-f", "tee", "[f=mp4:movflags=+faststart]" + file + "|[f=hls:hls_time="
                                + STREAM_SEGMENT_SECONDS + ":hls_init_time=0.5:hls_list_size=0"
                                + ":hls_playlist_type=event"
                                + ":hls_segment_type=mpegts:hls_segment_filename=" + STREAM_SEGMENTS + "]"
                                + STREAM_FILE));
            } else {
                mapped.add(file);
            }
        }

        /**
         * One input per still (split when it is shown more than once: one decoded frame serves every use), one per
         * use of a video (each use plays at its own time; splitting one decoding would queue the frames of a later
         * use in memory until its segment comes), one for the sound track.
         */
        private void inputs(Map<String, Path> assets) {
            Map<String, Integer> uses = new LinkedHashMap<>();
            for (ResolvedVideo.Segment segment : video.segments()) {
                if (segment.background().url() != null) {
                    uses.merge(segment.background().url(), 1, Integer::sum);
                }
                for (ResolvedVideo.Layer layer : segment.layers()) {
                    if (layer instanceof ResolvedVideo.Picture picture) {
                        uses.merge(picture.url(), 1, Integer::sum);
                    }
                }
            }
            int link = 0;
            for (Map.Entry<String, AssetKind> asset : video.assets().entrySet()) {
                if (soundOnly && asset.getValue() != AssetKind.AUDIO) {
                    continue;
                }
                Path file = assets.get(asset.getKey());
                if (file == null) {
                    throw new IllegalArgumentException("no fetched file for asset " + asset.getKey());
                }
                String name = "asset-" + link++;
                link(file, workDir.resolve(name));
                redactions.put("file:" + name, "asset " + abbreviate(asset.getKey(), SHOWN));
                AssetKind kind = asset.getValue();
                int count = uses.getOrDefault(asset.getKey(), 1);
                Deque<String> labels = new ArrayDeque<>();
                if (kind == AssetKind.VIDEO) {
                    for (int i = 0; i < count; i++) {
                        labels.add(input(name, kind) + ":v");
                    }
                } else if (kind == AssetKind.AUDIO) {
                    labels.add(input(name, kind) + ":a");
                } else if (count == 1) {
                    labels.add(input(name, kind) + ":v");
                } else {
                    int input = input(name, kind);
                    StringBuilder split = new StringBuilder("[" + input + ":v]split=" + count);
                    for (int i = 0; i < count; i++) {
                        String label = "in" + input + "_" + i;
                        split.append('[').append(label).append(']');
                        labels.add(label);
                    }
                    chains.add(split.toString());
                }
                sources.put(asset.getKey(), labels);
            }
        }

        /** Adds the options and {@code -i} of an input reading the linked file {@code name}; returns its index. */
        private int input(String name, AssetKind kind) {
            args.addAll(List.of("-protocol_whitelist", "file", "-format_whitelist", formats(kind)));
            switch (kind) {
                case AUDIO -> args.addAll(List.of("-vn", "-sn", "-dn"));
                case VIDEO -> args.addAll(List.of("-max_pixels", Long.toString(MAX_PIXELS), "-an", "-sn", "-dn"));
                default -> args.addAll(List.of("-max_pixels", Long.toString(MAX_PIXELS)));
            }
            args.addAll(List.of("-i", "file:" + name));
            return inputs++;
        }

        /** Adds the chains of segment {@code k}; returns the label of its finished frames. */
        private String segment(int k, ResolvedVideo.Segment segment) {
            String current = "s" + k + "_0";
            chains.add(background(k, segment) + "[" + current + "]");
            int step = 0;
            List<ResolvedVideo.Layer> layers = segment.layers();
            for (int j = 0; j < layers.size(); j++) {
                if (layers.get(j) instanceof ResolvedVideo.Speech) {
                    continue;
                }
                String next = "s" + k + "_" + (++step);
                if (layers.get(j) instanceof ResolvedVideo.Picture picture) {
                    String placed = "p" + k + "_" + j;
                    chains.add("[" + sources.get(picture.url()).poll() + "]" + picture(picture) + "[" + placed + "]");
                    chains.add("[" + current + "][" + placed + "]overlay=x="
                            + value(boxX(picture) + "+(" + picture.width() + "-w)/2") + ":y="
                            + value(boxY(picture) + "+(" + picture.height() + "-h)/2")
                            + ":eval=init:eof_action=repeat" + enable(picture, segment) + "[" + next + "]");
                } else {
                    String drawn = text(k, j, (ResolvedVideo.Text) layers.get(j), segment);
                    if (drawn.isEmpty()) {
                        step--;
                        continue;
                    }
                    chains.add("[" + current + "]" + drawn + "[" + next + "]");
                }
                current = next;
            }
            List<String> fades = new ArrayList<>();
            if (segment.fadeIn() > 0) {
                fades.add("fade=t=in:st=0:d=" + number(segment.fadeIn()));
            }
            if (segment.fadeOut() > 0) {
                fades.add("fade=t=out:st=" + number(segment.duration() - segment.fadeOut()) + ":d="
                        + number(segment.fadeOut()));
            }
            if (fades.isEmpty()) {
                return current;
            }
            String faded = "seg" + k;
            chains.add("[" + current + "]" + String.join(",", fades) + "[" + faded + "]");
            return faded;
        }

        private String background(int k, ResolvedVideo.Segment segment) {
            ResolvedVideo.Background background = segment.background();
            String size = canvas.width() + "x" + canvas.height();
            String repeat = "trim=end_frame=" + segment.frames() + ",setpts=" + value("N/(" + fps + "*TB)");
            if (background.url() == null) {
                return "color=c=" + color(background.color()) + ":s=" + size + ":r=" + fps + ":d="
                        + floor(segment.duration()) + ",format=yuv420p";
            }
            String source = sources.get(background.url()).poll();
            String cover = cover(canvas.width(), canvas.height());
            if (background.kind() == AssetKind.VIDEO) {
                return "[" + source + "]trim=duration=" + number(segment.duration())
                        + ",setpts=PTS-STARTPTS,fps=" + fps + "," + cover + ",format=yuv420p,"
                        + "tpad=stop_mode=clone:stop_duration=" + number(segment.duration()) + "," + repeat;
            }
            // a still is composed over its colour once (it may be transparent), then repeated
            chains.add("color=c=" + color(background.color()) + ":s=" + size + ":r=" + fps + ":d="
                    + floor(1.0 / fps) + "[b" + k + "]");
            chains.add("[" + source + "]" + cover + "[bi" + k + "]");
            return "[b" + k + "][bi" + k + "]overlay=eval=init,format=yuv420p,loop=loop=-1:size=1," + repeat;
        }

        /** The filters that bring a picture to its box, timed to its layer, with its fades. */
        private String picture(ResolvedVideo.Picture picture) {
            if (picture.motion() != null && picture.kind() != AssetKind.VIDEO) {
                return motion(picture);
            }
            List<String> filters = new ArrayList<>();
            boolean moving = picture.kind() == AssetKind.VIDEO;
            if (moving) {
                filters.add("trim=duration=" + number(picture.end() - picture.start()));
                filters.add("setpts=PTS-STARTPTS");
                filters.add("fps=" + fps);
            }
            filters.add(switch (picture.fit()) {
                case COVER -> cover(picture.width(), picture.height());
                case STRETCH -> "scale=" + picture.width() + ":" + picture.height() + ",setsar=1";
                case CONTAIN -> "scale=" + picture.width() + ":" + picture.height()
                        + ":force_original_aspect_ratio=decrease,setsar=1";
            });
            boolean fades = picture.fadeIn() > 0 || picture.fadeOut() > 0;
            if (moving) {
                filters.add("setpts=" + value("PTS+" + number(picture.start()) + "/TB"));
            } else if (fades) {
                // a still is one frame; its fades need one per output frame
                filters.add("loop=loop=-1:size=1");
                filters.add("setpts=" + value("N/(" + fps + "*TB)+" + number(picture.start()) + "/TB"));
                filters.add("trim=end=" + number(picture.end()));
            }
            alphaFades(picture, filters);
            return String.join(",", filters);
        }

        /** A picture's fades, as fades of its opacity; nothing when it has none. */
        private static void alphaFades(ResolvedVideo.Picture picture, List<String> filters) {
            if (picture.fadeIn() <= 0 && picture.fadeOut() <= 0) {
                return;
            }
            filters.add("format=yuva420p");
            if (picture.fadeIn() > 0) {
                filters.add("fade=t=in:st=" + number(picture.start()) + ":d=" + number(picture.fadeIn())
                        + ":alpha=1");
            }
            if (picture.fadeOut() > 0) {
                filters.add("fade=t=out:st=" + number(picture.end() - picture.fadeOut()) + ":d="
                        + number(picture.fadeOut()) + ":alpha=1");
            }
        }

        /**
         * A still that moves in its box: covered at twice the box size (zoompan moves in whole pixels; a larger
         * source makes the steps finer), then one zoompan frame per output frame of its time on screen.
         */
        private String motion(ResolvedVideo.Picture picture) {
            int w = picture.width();
            int h = picture.height();
            int frames = Math.max(1, (int) Math.round((picture.end() - picture.start()) * fps));
            String progress = "on/" + Math.max(1, frames - 1);
            String centerX = "iw/2-iw/zoom/2";
            String centerY = "ih/2-ih/zoom/2";
            String[] zxy = switch (picture.motion()) {
                case ZOOM_IN -> new String[]{"1+" + MOTION + "*" + progress, centerX, centerY};
                case ZOOM_OUT -> new String[]{"1+" + MOTION + "*(1-" + progress + ")", centerX, centerY};
                case PAN_LEFT -> new String[]{"1+" + MOTION, "(iw-iw/zoom)*(1-" + progress + ")", centerY};
                case PAN_RIGHT -> new String[]{"1+" + MOTION, "(iw-iw/zoom)*" + progress, centerY};
            };
            List<String> filters = new ArrayList<>();
            filters.add(cover(2 * w, 2 * h));
            filters.add("zoompan=z=" + value(zxy[0]) + ":x=" + value(zxy[1]) + ":y=" + value(zxy[2]) + ":d="
                    + frames + ":s=" + w + "x" + h + ":fps=" + fps);
            filters.add("setsar=1");
            filters.add("setpts=" + value("PTS-STARTPTS+" + number(picture.start()) + "/TB"));
            alphaFades(picture, filters);
            return String.join(",", filters);
        }

        /** One drawtext per laid-out line (so that each line is aligned on its own); empty when nothing shows. */
        private String text(int k, int j, ResolvedVideo.Text text, ResolvedVideo.Segment segment) {
            int width = canvas.width();
            int height = canvas.height();
            int marginX = (int) Math.round(width * MARGIN_X);
            int marginY = (int) Math.round(height * MARGIN_Y);
            int anchor = switch (text.x()) {
                case "left" -> marginX;
                case "center" -> width / 2;
                case "right" -> width - marginX;
                default -> Integer.parseInt(text.x());
            };
            int available = switch (text.align()) {
                case "left" -> width - marginX - anchor;
                case "right" -> anchor - marginX;
                default -> 2 * Math.min(anchor, width - anchor) - 2 * marginX;
            };
            if (available < Math.min(width - 2 * marginX, 2 * text.size())) {
                available = width - 2 * marginX;
            }
            int maxWidth = text.maxWidth() != null ? text.maxWidth() : available;
            TextLayout.Laid laid = TextLayout.fit(text.text(), fonts.awt(text.font()), text.size(), text.minSize(),
                    maxWidth, text.maxLines());
            int lineHeight = (int) Math.round(laid.size() * text.lineHeight());
            int block = (laid.lines().size() - 1) * lineHeight + laid.ascent() + laid.descent();
            int top = switch (text.y()) {
                case "top" -> marginY;
                case "center" -> (height - block) / 2;
                case "bottom" -> height - marginY - block;
                default -> Integer.parseInt(text.y());
            };
            String x = switch (text.align()) {
                case "left" -> Integer.toString(anchor);
                case "right" -> anchor + "-text_w";
                default -> anchor + "-text_w/2";
            };
            StringBuilder common = new StringBuilder()
                    .append(":expansion=none:fontsize=").append(laid.size())
                    .append(":fontcolor=").append(color(text.color()))
                    .append(":x=").append(value(x));
            if (text.boxColor() != null) {
                common.append(":box=1:boxcolor=").append(color(text.boxColor()))
                        .append(":boxborderw=").append(Math.max(2, laid.size() / 4));
            }
            if (text.shadowColor() != null) {
                int offset = Math.max(1, laid.size() / 24);
                common.append(":shadowcolor=").append(color(text.shadowColor()))
                        .append(":shadowx=").append(offset).append(":shadowy=").append(offset);
            }
            String alpha = alpha(text);
            if (alpha != null) {
                common.append(":alpha=").append(value(alpha));
            }
            common.append(enable(text, segment));

            List<String> lines = new ArrayList<>();
            for (int i = 0; i < laid.lines().size(); i++) {
                String line = laid.lines().get(i);
                if (line.isBlank()) {
                    continue;
                }
                String file = "text-" + k + "-" + j + "-" + i + ".txt";
                write(workDir.resolve(file), line);
                int baseline = top + laid.ascent() + i * lineHeight;
                lines.add("drawtext=fontfile=" + value(fonts.file(text.font()).toString()) + ":textfile="
                        + value(file) + common + ":y=" + value(baseline + "-ascent"));
            }
            return String.join(",", lines);
        }

        /** Opacity over time for fades of a text; null when it has none. */
        private static String alpha(ResolvedVideo.Layer layer) {
            List<String> ramps = new ArrayList<>();
            if (layer.fadeIn() > 0) {
                ramps.add("(t-" + number(layer.start()) + ")/" + number(layer.fadeIn()));
            }
            if (layer.fadeOut() > 0) {
                ramps.add("(" + number(layer.end()) + "-t)/" + number(layer.fadeOut()));
            }
            if (ramps.isEmpty()) {
                return null;
            }
            String ramp = ramps.size() == 1 ? ramps.get(0) : "min(" + ramps.get(0) + "," + ramps.get(1) + ")";
            return "max(0,min(1," + ramp + "))";
        }

        /** The timeline option of a layer's filter; empty when the layer spans its whole segment. */
        private static String enable(ResolvedVideo.Layer layer, ResolvedVideo.Segment segment) {
            if (layer.start() <= 0 && layer.end() >= segment.duration()) {
                return "";
            }
            return ":enable=" + value("gte(t," + number(layer.start()) + ")*lt(t," + number(layer.end()) + ")");
        }

        private String boxX(ResolvedVideo.Picture picture) {
            return "center".equals(picture.x())
                    ? Integer.toString((canvas.width() - picture.width()) / 2)
                    : picture.x();
        }

        private String boxY(ResolvedVideo.Picture picture) {
            return "center".equals(picture.y())
                    ? Integer.toString((canvas.height() - picture.height()) / 2)
                    : picture.y();
        }

        /**
         * The sound: the template's track (ducked while speech plays), with every speech delayed to its start and
         * cut at its end, mixed without changing levels.
         */
        private String audio() {
            List<ResolvedVideo.TimedSpeech> speeches = video.speeches();
            if (speeches.isEmpty() || speechInputs.isEmpty()) {
                return base();
            }
            String duration = number(video.durationSeconds());
            StringBuilder base = new StringBuilder(base());
            ResolvedVideo.Audio audio = video.audio();
            if (audio.type() == AudioType.TRACK && audio.duck() < 1) {
                List<String> spans = speeches.stream()
                        .map(s -> "between(t," + number(s.start()) + "," + number(s.end()) + ")").toList();
                base.append(",volume=volume=").append(number(audio.duck())).append(":enable=")
                        .append(value(String.join("+", spans)));
            }
            chains.add(base.append("[base]").toString());
            StringBuilder mix = new StringBuilder("[base]");
            for (int i = 0; i < speeches.size(); i++) {
                ResolvedVideo.TimedSpeech speech = speeches.get(i);
                long delay = Math.round(speech.start() * 1000);
                chains.add("[" + speechInputs.get(i) + "]aformat=sample_rates=" + AUDIO_RATE
                        + ":channel_layouts=stereo,atrim=duration=" + number(speech.end() - speech.start())
                        + ",adelay=delays=" + delay + ":all=1[sp" + i + "]");
                mix.append("[sp").append(i).append(']');
            }
            return mix.append("amix=inputs=").append(speeches.size() + 1)
                    .append(":duration=first:dropout_transition=0:normalize=0,atrim=duration=").append(duration)
                    .toString();
        }

        private String base() {
            ResolvedVideo.Audio audio = video.audio();
            String duration = number(video.durationSeconds());
            return switch (audio.type()) {
                case TONE -> "sine=f=" + number(audio.frequency()) + ":r=" + AUDIO_RATE + ":d=" + duration
                        + ",volume=" + number(audio.volume()) + ",aformat=channel_layouts=stereo";
                case TRACK -> "[" + sources.get(audio.url()).poll() + "]aformat=sample_rates=" + AUDIO_RATE
                        + ":channel_layouts=stereo,apad,atrim=duration=" + duration + ",volume="
                        + number(audio.volume())
                        + (audio.fadeIn() > 0 ? ",afade=t=in:st=0:d=" + number(audio.fadeIn()) : "")
                        + (audio.fadeOut() > 0
                                ? ",afade=t=out:st=" + number(video.durationSeconds() - audio.fadeOut()) + ":d="
                                        + number(audio.fadeOut())
                                : "");
                case SILENCE -> "anullsrc=r=" + AUDIO_RATE + ":cl=stereo,atrim=duration=" + duration;
            };
        }
    }

    private static String cover(int width, int height) {
        return "scale=" + width + ":" + height + ":force_original_aspect_ratio=increase,crop=" + width + ":" + height
                + ",setsar=1";
    }

    private static String formats(AssetKind kind) {
        return switch (kind) {
            case VIDEO -> VIDEO_FORMATS;
            case AUDIO -> AUDIO_FORMATS;
            default -> IMAGE_FORMATS;
        };
    }

    private static void link(Path file, Path link) {
        if (file.toAbsolutePath().normalize().equals(link.toAbsolutePath().normalize())) {
            return;
        }
        try {
            Files.deleteIfExists(link);
            try {
                Files.createSymbolicLink(link, file.toAbsolutePath());
            } catch (UnsupportedOperationException | IOException e) {
                Files.copy(file, link, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
