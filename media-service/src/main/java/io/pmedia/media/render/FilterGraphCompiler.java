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
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

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
    /** Margins of texts placed at an edge, as parts of the canvas width and height. */
    static final double MARGIN_X = 0.06;
    static final double MARGIN_Y = 0.08;

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
        return new Compilation(video, assets, workDir).command();
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
        private final int fps;
        private int inputs;

        Compilation(ResolvedVideo video, Map<String, Path> assets, Path workDir) {
            this.video = video;
            this.canvas = video.canvas();
            this.fps = canvas.fps();
            this.workDir = workDir;
            args.addAll(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y"));
            inputs(assets);
        }

        FfmpegCommand command() {
            List<ResolvedVideo.Segment> segments = video.segments();
            StringBuilder concat = new StringBuilder();
            for (int k = 0; k < segments.size(); k++) {
                concat.append('[').append(segment(k, segments.get(k))).append(']');
            }
            concat.append(segments.size() > 1 ? "concat=n=" + segments.size() + ":v=1:a=0," : "")
                    .append("format=yuv420p,split=2[vout][vthumb]");
            chains.add(concat.toString());
            int thumbnailFrame = segments.get(0).frames() / 2;
            chains.add("[vthumb]trim=start_frame=" + thumbnailFrame + ":end_frame=" + (thumbnailFrame + 1)
                    + "[thumb]");
            chains.add(audio() + "[aout]");

            args.addAll(List.of("-filter_complex", String.join(";", chains),
                    "-map", "[vout]", "-map", "[aout]",
                    "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
                    "-g", Integer.toString(fps * 2),
                    "-c:a", "aac", "-b:a", "128k", "-ar", Integer.toString(AUDIO_RATE),
                    "-movflags", "+faststart", "-map_metadata", "-1", "-fflags", "+bitexact",
                    "-t", number(video.durationSeconds()), VIDEO_FILE,
                    "-map", "[thumb]", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2",
                    "-update", "1", THUMBNAIL_FILE));
            return new FfmpegCommand(args, workDir, workDir.resolve(VIDEO_FILE), workDir.resolve(THUMBNAIL_FILE),
                    video.durationSeconds(), redactions);
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
            if (fades) {
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

        private String audio() {
            ResolvedVideo.Audio audio = video.audio();
            String duration = number(video.durationSeconds());
            return switch (audio.type()) {
                case TONE -> "sine=f=" + number(audio.frequency()) + ":r=" + AUDIO_RATE + ":d=" + duration
                        + ",volume=" + number(audio.volume()) + ",aformat=channel_layouts=stereo";
                case TRACK -> "[" + sources.get(audio.url()).poll() + "]aformat=sample_rates=" + AUDIO_RATE
                        + ":channel_layouts=stereo,apad,atrim=duration=" + duration + ",volume="
                        + number(audio.volume())
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
