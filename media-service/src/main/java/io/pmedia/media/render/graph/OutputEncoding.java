package io.pmedia.media.render.graph;

import static io.pmedia.media.render.ffmpeg.FilterGraph.number;
import static io.pmedia.media.render.graph.SoundMix.AUDIO_RATE;
import static io.pmedia.media.render.stream.StreamPublisher.STREAM_FILE;
import static io.pmedia.media.render.stream.StreamPublisher.STREAM_SEGMENTS;
import static io.pmedia.media.render.stream.StreamPublisher.STREAM_SEGMENT_SECONDS;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.media.template.OutputFormat;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

/**
 * The encoder and muxer settings of every output: per format (H.264/AAC MP4, VP9/Opus WebM, GIF), the segment
 * pieces of the cache, the HLS stream written beside the MP4, the thumbnail; and the per-output picture chain
 * (scaled, resampled, cut) that feeds each encoder.
 */
public final class OutputEncoding {

    /** The files a render writes in its work directory: the main output, its thumbnail, a still's preview. */
    static final String VIDEO_FILE = "video.mp4";
    static final String THUMBNAIL_FILE = "thumbnail.jpg";
    static final String PREVIEW_FILE = "preview.jpg";

    /**
     * The H.264 settings of a piece of the chunk cache, the same for every piece of every render: cached pieces and new ones
     * join only when they agree. A keyframe every second, so that the joined video streams in 1 s segments.
     */
    static final IntFunction<List<String>> PIECE_ENCODING = fps -> List.of("-c:v", "libx264", "-preset",
            "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-g", Integer.toString(fps * 2), "-force_key_frames",
            "expr:gte(t,n_forced*" + STREAM_SEGMENT_SECONDS + ")");

    private OutputEncoding() {
    }

    /** The encoder settings a cached piece was made with, for its cache key. */
    static String pieceEncoding(int fps) {
        return String.join(" ", PIECE_ENCODING.apply(fps));
    }

    /** The picture of output {@code i}: {@code vout} when it is the only one. */
    static String videoLabel(ResolvedVideo video, int i) {
        return video.outputs().size() == 1 ? "vout" : "v" + i;
    }

    /** The sound of output {@code i}: {@code aout} when it is the only one with sound. */
    static String audioLabel(ResolvedVideo video, int i) {
        return sounding(video) == 1 ? "aout" : "a" + i;
    }

    /** How many outputs carry sound (a GIF has none). */
    static long sounding(ResolvedVideo video) {
        return video.outputs().stream().filter(o -> o.format() != OutputFormat.GIF).count();
    }

    /** The chain and the arguments of output {@code i}. */
    static void output(SegmentGraph graph, int i, ResolvedVideo.Output output, String file, List<String> mapped,
            boolean stream) {
        ResolvedVideo video = graph.video;
        int fps = graph.fps;
        // a resampled output has a set number of frames: the fps filter's own count depends on how its input ends
        List<String> filters = new ArrayList<>(resize(output, graph.canvas.height(), fps,
                changesRate(output, fps) ? resampled(fps(output, fps), fps, video.frames(), video.frames()) : -1));
        double duration = duration(video, output);
        if (output.duration() > 0) {
            filters.add("trim=duration=" + number(duration));
        }
        if (output.format() == OutputFormat.GIF) {
            filters.add("split[g" + i + "a][g" + i + "b];[g" + i + "a]palettegen=stats_mode=diff[g" + i
                    + "p];[g" + i + "b][g" + i + "p]paletteuse=dither=bayer");
        }
        String picture = videoLabel(video, i);
        if (!filters.isEmpty()) {
            graph.chains.add("[" + picture + "]" + String.join(",", filters) + "[o" + i + "]");
            picture = "o" + i;
        }
        mapped.addAll(List.of("-map", "[" + picture + "]"));
        if (output.format() != OutputFormat.GIF) {
            String sound = "[" + audioLabel(video, i) + "]";
            if (output.duration() > 0) {
                graph.chains.add(sound + "atrim=duration=" + number(duration) + "[at" + i + "]");
                sound = "[at" + i + "]";
            }
            mapped.addAll(List.of("-map", sound));
        }
        boolean streamed = i == 0 && stream;
        mapped.addAll(encoder(output.format(), fps(output, fps), !streamed));
        mapped.addAll(List.of("-map_metadata", "-1", "-fflags", "+bitexact", "-t", number(duration)));
        if (streamed) {
            // one encode, two muxers: the MP4 and, as it renders, the HLS stream (a keyframe every segment)
            // the first segment is half as long, so that a player can start sooner
            mapped.addAll(List.of("-force_key_frames",
                    "expr:gte(t,if(lte(n_forced,1),n_forced*0.5,(n_forced-1)*" + STREAM_SEGMENT_SECONDS + "))",
                    "-f", "tee", mp4AndStream(file, ":hls_init_time=0.5")));
        } else {
            mapped.add(file);
        }
    }

    /**
     * The filters that turn the canvas's picture into {@code output}'s: scaled to its height (the width following,
     * rounded to even), resampled to its rate, and then cut to its first {@code keep} frames ({@code keep < 0}: not
     * cut); none when it is the canvas as it is. A full render and the chunk cache's pieces of that output apply the
     * same ones.
     */
    static List<String> resize(ResolvedVideo.Output output, int canvasHeight, int canvasFps, int keep) {
        List<String> filters = new ArrayList<>();
        if (changesSize(output, canvasHeight)) {
            filters.add("scale=-2:" + output.height() + ":flags=bicubic,setsar=1");
        }
        if (changesRate(output, canvasFps)) {
            filters.add("fps=" + output.fps());
        }
        if (keep >= 0) {
            filters.add("trim=end_frame=" + keep);
        }
        return filters;
    }

    /** Whether {@code output}'s frames are the canvas's as they are: neither scaled nor resampled. */
    public static boolean showsCanvas(ResolvedVideo.Output output, TemplateDefinition.Canvas canvas) {
        return !changesSize(output, canvas.height()) && !changesRate(output, canvas.fps());
    }

    /** Whether {@code output} is scaled from the canvas's height. */
    public static boolean changesSize(ResolvedVideo.Output output, int canvasHeight) {
        return output.height() > 0 && output.height() != canvasHeight;
    }

    /** Whether {@code output} is resampled from the canvas's rate. */
    static boolean changesRate(ResolvedVideo.Output output, int canvasFps) {
        return output.fps() > 0 && output.fps() != canvasFps;
    }

    /**
     * How many frames of {@code output} a piece of frames {@code [from, to)} of a video of {@code total} frames
     * holds (from a whole second): its frames resampled ({@link #resampled(int, int, int, int)}), none past a
     * teaser's cut ({@link #cutFrames}).
     */
    static int pieceFrames(ResolvedVideo.Output output, int canvasFps, int total, int from, int to) {
        int fps = fps(output, canvasFps);
        return Math.max(0, Math.min(cutFrames(output, canvasFps, total), resampled(fps, canvasFps, total, to))
                - resampled(fps, canvasFps, total, from));
    }

    /**
     * How many frames at {@code fps} come before frame {@code frame} of a video of {@code frames} at {@code
     * canvasFps}: on a whole second, that many seconds' worth; at the video's end, as many as FFmpeg's {@code fps}
     * filter makes when its input ends on the last frame's time (it does after a transition; after a cut it ends a
     * frame later and would make one more frame now and then, which the trim takes off).
     */
    static int resampled(int fps, int canvasFps, int frames, int frame) {
        if (fps == canvasFps) {
            return frame;
        }
        if (frame == frames) {
            return (int) Math.round((double) (frames - 1) * fps / canvasFps);
        }
        if ((long) frame * fps % canvasFps != 0) {
            throw new IllegalArgumentException("frame " + frame + " is not on a whole second at " + canvasFps
                    + " fps");
        }
        return (int) ((long) frame * fps / canvasFps);
    }

    /**
     * How many frames {@code output} has in all: those of a video of {@code frames} at {@code canvasFps}, resampled
     * to its rate, and of a teaser those before its cut (what {@code trim=duration} keeps).
     */
    static int cutFrames(ResolvedVideo.Output output, int canvasFps, int frames) {
        int fps = fps(output, canvasFps);
        int all = resampled(fps, canvasFps, frames, frames);
        return output.duration() > 0 ? Math.min(all, (int) Math.ceil(output.duration() * fps - 1e-9)) : all;
    }

    /** How long {@code output} lasts: the video, or its first seconds (a teaser). */
    static double duration(ResolvedVideo video, ResolvedVideo.Output output) {
        return output.duration() > 0 ? Math.min(output.duration(), video.durationSeconds()) : video.durationSeconds();
    }

    /** The frame rate of {@code output}: its own, else the canvas's. */
    static int fps(ResolvedVideo.Output output, int canvasFps) {
        return output.fps() > 0 ? output.fps() : canvasFps;
    }

    /**
     * What a cached piece of output {@code output} holding frames {@code [from, to)} of a video of {@code total} is
     * made with, for its key: the piece encoding at the output's rate, its height and rate when they are not the
     * canvas's, and how many frames it holds when that is not its seconds' worth (the end of a resampled output, a
     * teaser's cut: where the piece sits in the video decides it). A piece of the canvas as it is keeps the key it
     * always had.
     */
    static String pieceShape(ResolvedVideo.Output output, int canvasHeight, int canvasFps, int total, int from,
            int to) {
        int fps = fps(output, canvasFps);
        String shape = pieceEncoding(fps);
        if (changesSize(output, canvasHeight)) {
            shape += " height=" + output.height();
        }
        if (changesRate(output, canvasFps)) {
            shape += " fps=" + fps;
        }
        int frames = pieceFrames(output, canvasFps, total, from, to);
        return (long) frames * canvasFps == (long) (to - from) * fps ? shape : shape + " frames=" + frames;
    }

    /** The encoder settings of one output format at {@code fps} (a keyframe every two seconds). */
    static List<String> encoder(OutputFormat format, int fps, boolean faststart) {
        List<String> settings = new ArrayList<>();
        switch (format) {
            case MP4 -> {
                settings.addAll(List.of("-c:v", "libx264", "-preset", "veryfast", "-crf", "23",
                        "-pix_fmt", "yuv420p", "-g", Integer.toString(fps * 2),
                        "-c:a", "aac", "-b:a", "128k", "-ar", Integer.toString(AUDIO_RATE)));
                if (faststart) {
                    settings.addAll(List.of("-movflags", "+faststart"));
                }
            }
            case WEBM -> settings.addAll(List.of("-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                    "-row-mt", "1", "-tile-columns", "2", "-b:v", "0", "-crf", "36", "-pix_fmt", "yuv420p",
                    "-c:a", "libopus", "-b:a", "96k", "-ar", Integer.toString(AUDIO_RATE)));
            case GIF -> settings.addAll(List.of("-loop", "0", "-f", "gif"));
        }
        return settings;
    }

    /**
     * The tee muxer's target: the MP4 ({@code +faststart}) and the HLS event stream of
     * {@value StreamPublisher#STREAM_SEGMENT_SECONDS} s segments, from one encode.
     *
     * @param hlsOptions further options of the HLS muxer, each starting with {@code :}
     */
    static String mp4AndStream(String file, String hlsOptions) {
        return "[f=mp4:movflags=+faststart]" + file + "|[f=hls:hls_time=" + STREAM_SEGMENT_SECONDS + hlsOptions
                + ":hls_list_size=0:hls_playlist_type=event:hls_segment_type=mpegts:hls_segment_filename="
                + STREAM_SEGMENTS + "]" + STREAM_FILE;
    }

    /**
     * The HLS muxer alone, as {@link #mp4AndStream} sets it (for an assembly's stream): a stream's cached opening is
     * written with it, so that the assembly's segments continue it.
     */
    static List<String> stream() {
        return List.of("-f", "hls", "-hls_time", Integer.toString(STREAM_SEGMENT_SECONDS), "-hls_list_size", "0",
                "-hls_playlist_type", "event", "-hls_segment_type", "mpegts", "-hls_segment_filename",
                STREAM_SEGMENTS, STREAM_FILE);
    }

    /** The sound of the chunk cache (kept, or the request's own), encoded as a full render's. */
    static List<String> pieceSound() {
        return List.of("-c:a", "aac", "-b:a", "128k", "-ar", Integer.toString(AUDIO_RATE));
    }

    /** The thumbnail: one JPEG frame of the mapped picture. */
    static List<String> thumbnail(String picture) {
        return List.of("-map", picture, "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2", "-update",
                "1", THUMBNAIL_FILE);
    }
}
