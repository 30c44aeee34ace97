package io.pmedia.media.render.graph;

import static io.pmedia.common.error.Messages.abbreviate;
import static io.pmedia.media.render.ffmpeg.FilterGraph.color;
import static io.pmedia.media.render.ffmpeg.FilterGraph.floor;
import static io.pmedia.media.render.ffmpeg.FilterGraph.number;
import static io.pmedia.media.render.ffmpeg.FilterGraph.value;

import java.io.IOException;
import java.io.UncheckedIOException;
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

import io.pmedia.graphics.draw.VideoFrames;
import io.pmedia.media.render.ffmpeg.DecodedVideo;
import io.pmedia.media.render.ffmpeg.GraphicsInput;
import io.pmedia.media.render.graphics.EngineText;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.PictureFit;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;

/**
 * The filter graph of one render as it is built: the inputs (assets linked into the work directory, speech), the
 * chains of every segment (its base, its pictures overlaid, its texts, shapes, lottie layers and keyframed pictures
 * and videos drawn by the graphics engine through {@link EngineText}, a keyframed video's frames decoded by an FFmpeg of
 * its own for it, its fades) and
 * how the segments join; {@link SoundMix} adds the sound and {@link RenderCommands} turns it into a command. One
 * instance per command: it holds the arguments, the chains, and the labels still to be consumed.
 */
final class SegmentGraph {

    /** The longest URL as a vendor would recognise it in a message. */
    static final int SHOWN = EngineText.SHOWN;
    /** How much closer a moving picture gets: a fifth. */
    static final String MOTION = "0.2";
    /** How many of the engine's frames FFmpeg's reading thread may hold ahead of its filters. */
    static final int PIPE_QUEUE = 2;

    final ResolvedVideo video;
    final TemplateDefinition.Canvas canvas;
    final Path workDir;
    /** The text layers, drawn by the graphics engine and overlaid from FFmpeg's standard input. */
    final EngineText engineText;
    final List<String> args = new ArrayList<>();
    final List<String> chains = new ArrayList<>();
    final Map<String, Deque<String>> sources = new HashMap<>();
    final Map<String, String> redactions = new LinkedHashMap<>();
    final List<String> speechInputs = new ArrayList<>();
    final int fps;
    /**
     * Where a window starts: the frame of the only segment from which the graph makes frames (their timestamps
     * those of the whole segment, so that layers, fades and texts are timed as in a full render); 0 for all of it.
     */
    final int offset;
    private final boolean soundOnly;
    private final String ffmpeg;
    private int inputs;
    /** How many keyframed videos the engine was given (each decoded from a link of its own). */
    private int decoded;

    /** Which assets are inputs: all, or only the sound's. */
    private enum Sources {
        ALL, SOUND
    }

    /** The graph of a render from its assets (every asset an input). */
    static SegmentGraph of(String ffmpeg, Fonts fonts, ResolvedVideo video, Map<String, Path> assets,
            List<Path> speech, Path workDir) {
        return new SegmentGraph(ffmpeg, fonts, video, assets, speech, workDir, Sources.ALL, 0);
    }

    /**
     * The graph of frames {@code offset} onwards of a one-segment video (a window of the chunk cache): a video
     * background is opened at that moment (a seek, not a decode from its start), a colour or still starts there.
     */
    static SegmentGraph window(String ffmpeg, Fonts fonts, ResolvedVideo video, Map<String, Path> assets,
            Path workDir, int offset) {
        if (video.segments().size() != 1) {
            throw new IllegalArgumentException("a window lies in one segment");
        }
        return new SegmentGraph(ffmpeg, fonts, video, assets, List.of(), workDir, Sources.ALL, offset);
    }

    /** The graph of the video's sound alone: only the sound's assets and the speech are inputs. */
    static SegmentGraph soundOf(String ffmpeg, Fonts fonts, ResolvedVideo video, Map<String, Path> assets,
            List<Path> speech, Path workDir) {
        return new SegmentGraph(ffmpeg, fonts, video, assets, speech, workDir, Sources.SOUND, 0);
    }

    private SegmentGraph(String ffmpeg, Fonts fonts, ResolvedVideo video, Map<String, Path> assets,
            List<Path> speech, Path workDir, Sources sources, int offset) {
        this.video = video;
        this.offset = offset;
        this.soundOnly = sources != Sources.ALL;
        this.canvas = video.canvas();
        this.fps = canvas.fps();
        this.workDir = workDir;
        this.ffmpeg = ffmpeg;
        this.engineText = new EngineText(fonts, canvas, assets, this::decoded);
        args.addAll(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y"));
        if (sources == Sources.SOUND) {
            Map<String, Path> sound = new LinkedHashMap<>();
            if (video.audio().url() != null) {
                sound.put(video.audio().url(), assets.get(video.audio().url()));
            }
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

    /**
     * The filter graph of the chains built so far, as {@code -filter_complex} takes it: when texts were drawn by the
     * graphics engine, its input (FFmpeg's standard input) is added first, and its chain.
     */
    String filterComplex() {
        if (!engineText.isEmpty() && graphicsInput < 0) {
            boolean alone = inputs == 0;
            // read ahead by at most PIPE_QUEUE frames (a frame is megabytes: FFmpeg's default would hold 8)
            args.addAll(List.of("-thread_queue_size", Integer.toString(PIPE_QUEUE)));
            args.addAll(engineText.inputOptions());
            args.addAll(List.of("-i", "pipe:0"));
            graphicsInput = inputs++;
            if (alone) {
                // FFmpeg 5.1 reads its inputs on threads of their own only when it has two or more; with the pipe
                // alone it would read a frame only between the frames it filters and encodes, so the engine and
                // FFmpeg would take turns. An empty input that no output maps makes it two.
                args.addAll(List.of("-f", "lavfi", "-t", "0.04", "-i", "anullsrc"));
                inputs++;
            }
            chains.add(engineText.chain(graphicsInput));
        }
        return engineText.placed(String.join(";", chains));
    }

    /** What the graphics engine writes to the command's standard input; null when it draws nothing. */
    GraphicsInput graphics() {
        return graphicsInput < 0 ? null : engineText.input();
    }

    private int graphicsInput = -1;

    /** The sound of the whole video, its chains added; see {@link SoundMix}. */
    String sound() {
        return new SoundMix(this).audio();
    }

    /**
     * The segments one after the other: concatenated, or passed into each other by xfade where a segment has
     * a transition (xfade wants one time base on both sides). Returns the graph up to a trailing comma.
     */
    String join() {
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
                if (layer instanceof ResolvedVideo.Picture picture && !picture.keyframed()) {
                    uses.merge(picture.url(), 1, Integer::sum);
                }
            }
        }
        int link = 0;
        for (Map.Entry<String, AssetKind> asset : video.assets().entrySet()) {
            if (soundOnly && asset.getValue() != AssetKind.AUDIO) {
                continue;
            }
            if (asset.getValue() != AssetKind.AUDIO && !uses.containsKey(asset.getKey())) {
                // only a lottie layer or keyframed pictures and videos show it: the graphics engine draws it, this
                // FFmpeg never reads it
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
                // a window opens its background (the first use of its URL) at the window's start
                boolean seek = offset > 0 && asset.getKey().equals(video.segments().get(0).background().url());
                for (int i = 0; i < count; i++) {
                    if (seek && i == 0) {
                        args.addAll(List.of("-ss", number((double) offset / fps)));
                    }
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
        args.addAll(InputOptions.of(name, kind));
        return inputs++;
    }

    /**
     * A keyframed video's frames for the engine: its file decoded by an FFmpeg of its own, opened as the render opens
     * a video, as its overlay would have it (from its start for its time, at the render's rate, fitted by its
     * {@code fit}) at {@code width} x {@code height}, a contained video's margins transparent, as raw RGBA. Only
     * numbers enter its graph.
     */
    private VideoFrames decoded(ResolvedVideo.Picture video, Path file, int width, int height) {
        String name = "video-" + decoded++;
        link(file, workDir.resolve(name));
        List<String> filters = new ArrayList<>(List.of("trim=duration=" + number(video.end() - video.start()),
                "setpts=PTS-STARTPTS", "fps=" + fps, fit(video.fit(), width, height), "format=rgba"));
        if (video.fit() == PictureFit.CONTAIN) {
            filters.add("pad=" + width + ":" + height + ":(ow-iw)/2:(oh-ih)/2:color=0x00000000");
        }
        List<String> command = new ArrayList<>(List.of(ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel",
                "error"));
        command.addAll(InputOptions.of(name, AssetKind.VIDEO));
        command.addAll(List.of("-vf", String.join(",", filters), "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"));
        return new DecodedVideo(command, workDir, name);
    }

    /** Adds the chains of segment {@code k}; returns the label of its finished frames. */
    String segment(int k, ResolvedVideo.Segment segment) {
        String current = "s" + k + "_0";
        chains.add(background(k, segment) + "[" + current + "]");
        int step = 0;
        List<ResolvedVideo.Layer> layers = segment.layers();
        engineText.segment(segment.id(), segment.frames() - offset, offset);
        List<ResolvedVideo.Layer> run = new ArrayList<>();
        int band = 0;
        for (int j = 0; j <= layers.size(); j++) {
            ResolvedVideo.Layer layer = j < layers.size() ? layers.get(j) : null;
            if (layer instanceof ResolvedVideo.Speech) {
                continue;
            }
            if (layer instanceof ResolvedVideo.Text || layer instanceof ResolvedVideo.Shape
                    || layer instanceof ResolvedVideo.Lottie
                    || layer instanceof ResolvedVideo.Picture keyframed && keyframed.keyframed()) {
                run.add(layer);
                continue;
            }
            // a picture FFmpeg overlays, or the end: the layers the engine draws before it are drawn below it
            if (!run.isEmpty()) {
                String drawn = engineText.run(band, run, "g" + k + "_" + band);
                run.clear();
                if (drawn != null) {
                    String next = "s" + k + "_" + (++step);
                    chains.add("[" + current + "][" + drawn + "]overlay=" + EngineText.at(drawn) + "eval=init[" + next
                            + "]");
                    current = next;
                    band++;
                }
            }
            if (layer instanceof ResolvedVideo.Picture picture) {
                String next = "s" + k + "_" + (++step);
                String placed = "p" + k + "_" + j;
                chains.add("[" + sources.get(picture.url()).poll() + "]" + picture(picture) + "[" + placed + "]");
                chains.add("[" + current + "][" + placed + "]overlay=x="
                        + value(boxX(picture) + "+(" + picture.width() + "-w)/2") + ":y="
                        + value(boxY(picture) + "+(" + picture.height() + "-h)/2")
                        + ":eval=init:eof_action=repeat" + enable(picture, segment) + "[" + next + "]");
                current = next;
            }
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
        String repeat = "trim=end_frame=" + (segment.frames() - offset) + ",setpts="
                + value((offset > 0 ? "(N+" + offset + ")" : "N") + "/(" + fps + "*TB)");
        if (background.url() == null) {
            return "color=c=" + color(background.color()) + ":s=" + size + ":r=" + fps + ":d="
                    + floor(segment.duration()) + ",format=yuv420p"
                    + (offset > 0 ? ",trim=start_frame=" + offset : "");
        }
        String source = sources.get(background.url()).poll();
        String cover = cover(canvas.width(), canvas.height());
        if (background.kind() == AssetKind.VIDEO) {
            // opened at the window's start (see inputs): what is left of the segment from there
            return "[" + source + "]trim=duration=" + number(segment.duration() - (double) offset / fps)
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
        filters.add(fit(picture.fit(), picture.width(), picture.height()));
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

    /** The timeline option of a layer's filter; empty when the layer spans its whole segment. */
    static String enable(ResolvedVideo.Layer layer, ResolvedVideo.Segment segment) {
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

    /** The filter that fits a picture into a box of {@code width} x {@code height} (contain: it may be smaller). */
    private static String fit(PictureFit fit, int width, int height) {
        return switch (fit) {
            case COVER -> cover(width, height);
            case STRETCH -> "scale=" + width + ":" + height + ",setsar=1";
            case CONTAIN -> "scale=" + width + ":" + height + ":force_original_aspect_ratio=decrease,setsar=1";
        };
    }

    static String cover(int width, int height) {
        return "scale=" + width + ":" + height + ":force_original_aspect_ratio=increase,crop=" + width + ":" + height
                + ",setsar=1";
    }

    static void link(Path file, Path link) {
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
}
