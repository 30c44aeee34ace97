package io.pmedia.media.render;

import static io.pmedia.media.render.FilterGraph.color;
import static io.pmedia.media.render.FilterGraph.number;
import static io.pmedia.media.render.FilterGraph.value;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

/**
 * Compiles a resolved video into one FFmpeg invocation: every segment is a colour base with its background,
 * pictures and texts laid over it, the segments are concatenated, and the same pass writes the H.264/AAC MP4
 * ({@code +faststart}) and a JPEG thumbnail. Vendor text reaches FFmpeg only through files read with
 * {@code textfile=} and {@code expansion=none}; asset files are opened with a whitelist of protocols (local files
 * only) and demuxers, so a hostile "image" (an HLS playlist, say) cannot make FFmpeg read anything else.
 */
public final class RenderCompiler {

    static final String IMAGE_FORMATS = "image2,png_pipe,jpeg_pipe,webp_pipe,gif,bmp_pipe,tiff_pipe";
    static final String VIDEO_FORMATS = "mov,mp4,matroska,webm,avi,gif";
    static final double SEGMENT_FADE = 0.2;

    private RenderCompiler() {
    }

    /**
     * @param assets the local file of every URL in {@link ResolvedVideo#assets()}
     * @param workDir where text files and the outputs go
     */
    public static FfmpegCommand compile(ResolvedVideo video, Map<String, Path> assets, Path workDir, Path fontDir,
            String ffmpeg) {
        TemplateDefinition.Canvas canvas = video.canvas();
        List<String> args = new ArrayList<>(List.of(ffmpeg, "-hide_banner", "-nostdin", "-y", "-loglevel", "error"));
        List<String> chains = new ArrayList<>();

        Map<String, AssetKind> kinds = video.assets();
        Map<String, Integer> uses = countUses(video);
        Map<String, Deque<String>> labels = new HashMap<>();
        int input = 0;
        for (Map.Entry<String, AssetKind> asset : kinds.entrySet()) {
            Path file = assets.get(asset.getKey());
            if (file == null) {
                throw new IllegalArgumentException("no local file for asset " + asset.getKey());
            }
            args.addAll(List.of("-protocol_whitelist", "file", "-format_whitelist",
                    asset.getValue() == AssetKind.VIDEO ? VIDEO_FORMATS : IMAGE_FORMATS, "-i",
                    "file:" + file.toAbsolutePath()));
            int count = uses.get(asset.getKey());
            Deque<String> copies = new ArrayDeque<>();
            if (count == 1) {
                copies.add(input + ":v");
            } else {
                StringBuilder split = new StringBuilder("[" + input + ":v]split=" + count);
                for (int i = 0; i < count; i++) {
                    String label = "a" + input + "_" + i;
                    split.append('[').append(label).append(']');
                    copies.add(label);
                }
                chains.add(split.toString());
            }
            labels.put(asset.getKey(), copies);
            input++;
        }

        List<Path> textFiles = new ArrayList<>();
        List<ResolvedVideo.Segment> segments = video.segments();
        for (int k = 0; k < segments.size(); k++) {
            ResolvedVideo.Segment segment = segments.get(k);
            String current = "s" + k + "_0";
            int step = 0;
            chains.add("color=c=" + color(segment.background().color()) + ":s=" + canvas.width() + "x"
                    + canvas.height() + ":r=" + canvas.fps() + ":d=" + number(segment.duration()) + "[" + current
                    + "]");
            if (segment.background().url() != null) {
                String source = labels.get(segment.background().url()).poll();
                String picture = "bg" + k;
                chains.add("[" + source + "]" + timing(segment.background().kind(), 0, segment.duration(), canvas)
                        + fit("cover", canvas.width(), canvas.height()) + "[" + picture + "]");
                String next = "s" + k + "_" + (++step);
                chains.add("[" + current + "][" + picture + "]overlay=x=0:y=0:eof_action=repeat[" + next + "]");
                current = next;
            }
            List<ResolvedVideo.Layer> layers = segment.layers();
            for (int j = 0; j < layers.size(); j++) {
                ResolvedVideo.Layer layer = layers.get(j);
                String next = "s" + k + "_" + (++step);
                String enable = value("between(t," + number(layer.start()) + "," + number(layer.end()) + ")");
                if (layer instanceof ResolvedVideo.Picture picture) {
                    String source = labels.get(picture.url()).poll();
                    String placed = "p" + k + "_" + j;
                    chains.add("[" + source + "]" + timing(picture.kind(), picture.start(), picture.end(), canvas)
                            + fit(picture.fit(), picture.width(), picture.height()) + "[" + placed + "]");
                    chains.add("[" + current + "][" + placed + "]overlay=x=" + value(boxX(picture, canvas)) + ":y="
                            + value(boxY(picture, canvas)) + ":eof_action=repeat:enable=" + enable + "[" + next
                            + "]");
                } else {
                    ResolvedVideo.Text text = (ResolvedVideo.Text) layer;
                    Path textFile = workDir.resolve("text-" + k + "-" + j + ".txt");
                    write(textFile, text.text());
                    textFiles.add(textFile);
                    chains.add("[" + current + "]" + drawtext(text, textFile, fontDir, enable) + "[" + next + "]");
                }
                current = next;
            }
            String fades = segment.duration() >= 4 * SEGMENT_FADE
                    ? "fade=t=in:st=0:d=" + number(SEGMENT_FADE) + ",fade=t=out:st="
                            + number(segment.duration() - SEGMENT_FADE) + ":d=" + number(SEGMENT_FADE)
                    : "null";
            chains.add("[" + current + "]" + fades + ",setsar=1[seg" + k + "]");
        }

        StringBuilder joined = new StringBuilder();
        for (int k = 0; k < segments.size(); k++) {
            joined.append("[seg").append(k).append(']');
        }
        if (segments.size() > 1) {
            joined.append("concat=n=").append(segments.size()).append(":v=1:a=0,");
        }
        chains.add(joined + "format=yuv420p,split=2[vmain][vthumb]");
        long thumbnailFrame = Math.max(0, Math.round(segments.get(0).duration() / 2 * canvas.fps()));
        chains.add("[vthumb]select=" + value("eq(n," + thumbnailFrame + ")") + "[thumb]");
        chains.add(audio(video.audio(), video.durationSeconds()) + "[aout]");

        Path output = workDir.resolve("video.mp4");
        Path thumbnail = workDir.resolve("thumbnail.jpg");
        args.addAll(List.of("-filter_complex", String.join(";", chains),
                "-map", "[vmain]", "-map", "[aout]",
                "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
                "-r", Integer.toString(canvas.fps()), "-g", Integer.toString(canvas.fps() * 2),
                "-c:a", "aac", "-b:a", "96k", "-ar", "48000",
                "-movflags", "+faststart", "-t", number(video.durationSeconds()), output.toString(),
                "-map", "[thumb]", "-frames:v", "1", "-q:v", "3", "-update", "1", thumbnail.toString()));
        return new FfmpegCommand(List.copyOf(args), output, thumbnail, video.durationSeconds(), textFiles);
    }

    private static Map<String, Integer> countUses(ResolvedVideo video) {
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
        return uses;
    }

    /** A video plays from its layer's start, for its layer's time, at the canvas rate; a still needs nothing. */
    private static String timing(AssetKind kind, double start, double end, TemplateDefinition.Canvas canvas) {
        if (kind != AssetKind.VIDEO) {
            return "";
        }
        return "trim=duration=" + number(end - start) + ",setpts=" + value("PTS-STARTPTS+" + number(start) + "/TB")
                + ",fps=" + canvas.fps() + ",";
    }

    private static String fit(String fit, int width, int height) {
        return switch (fit) {
            case "cover" -> "scale=" + width + ":" + height + ":force_original_aspect_ratio=increase,crop=" + width
                    + ":" + height + ",setsar=1";
            case "stretch" -> "scale=" + width + ":" + height + ",setsar=1";
            default -> "scale=" + width + ":" + height + ":force_original_aspect_ratio=decrease,setsar=1";
        };
    }

    /** The picture is centred in its box; the box sits at x (pixels) or in the middle. */
    private static String boxX(ResolvedVideo.Picture picture, TemplateDefinition.Canvas canvas) {
        String box = "center".equals(picture.x()) ? number((canvas.width() - picture.width()) / 2.0) : picture.x();
        return box + "+(" + picture.width() + "-w)/2";
    }

    private static String boxY(ResolvedVideo.Picture picture, TemplateDefinition.Canvas canvas) {
        String box = "center".equals(picture.y()) ? number((canvas.height() - picture.height()) / 2.0) : picture.y();
        return box + "+(" + picture.height() + "-h)/2";
    }

    private static String drawtext(ResolvedVideo.Text text, Path file, Path fontDir, String enable) {
        StringBuilder filter = new StringBuilder("drawtext=fontfile=")
                .append(value(Fonts.file(text.font(), fontDir).toString()))
                .append(":textfile=").append(value(file.toAbsolutePath().toString()))
                .append(":expansion=none")
                .append(":fontsize=").append(text.size())
                .append(":fontcolor=").append(color(text.color()))
                .append(":line_spacing=").append(Math.max(2, text.size() / 6))
                .append(":x=").append(value(textX(text.x())))
                .append(":y=").append(value(textY(text.y())))
                .append(":enable=").append(enable);
        if (text.boxColor() != null) {
            filter.append(":box=1:boxcolor=").append(color(text.boxColor())).append(":boxborderw=")
                    .append(Math.max(4, text.size() / 3));
        }
        if (text.fade() > 0) {
            double st = text.start();
            double en = text.end();
            double f = text.fade();
            filter.append(":alpha=").append(value("if(lt(t," + number(st) + "),0,if(lt(t," + number(st + f) + "),(t-"
                    + number(st) + ")/" + number(f) + ",if(lt(t," + number(en - f) + "),1,if(lt(t," + number(en)
                    + "),(" + number(en) + "-t)/" + number(f) + ",0))))"));
        }
        return filter.toString();
    }

    private static String textX(String x) {
        return switch (x) {
            case "center" -> "(w-text_w)/2";
            case "left" -> "w*0.06";
            case "right" -> "w-text_w-w*0.06";
            default -> x;
        };
    }

    private static String textY(String y) {
        return switch (y) {
            case "center" -> "(h-text_h)/2";
            case "top" -> "h*0.08";
            case "bottom" -> "h-text_h-h*0.08";
            default -> y;
        };
    }

    private static String audio(TemplateDefinition.Audio audio, double duration) {
        if (audio != null && "tone".equals(audio.type())) {
            double frequency = audio.frequency() == null ? 440 : audio.frequency();
            double volume = audio.volume() == null ? 0.05 : audio.volume();
            return "sine=frequency=" + number(frequency) + ":sample_rate=48000:duration=" + number(duration)
                    + ",volume=" + number(volume) + ",aformat=channel_layouts=stereo";
        }
        return "anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=" + number(duration);
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
