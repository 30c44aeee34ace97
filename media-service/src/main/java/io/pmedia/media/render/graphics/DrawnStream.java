package io.pmedia.media.render.graphics;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import io.pmedia.graphics.FrameRenderer;
import io.pmedia.graphics.Scene;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.ffmpeg.FilterGraph;

/**
 * How {@link EngineText}'s stream reaches the graph: the cuts of it (a run of drawn layers of a segment, or the
 * captions), the frames the stream carries (a frame whose picture is the one before it is left out, the overlay holding
 * a picture until the next), the strip of its band each run is cropped to and overlaid at, and the window of each band
 * the frames carry (every strip of the band: the rest of it is never cropped). Planned once, when the graph is
 * complete, by a renderer of the scene that draws nothing.
 */
final class DrawnStream {

    private final List<Cut> cuts = new ArrayList<>();
    /** Where each branch's strip is in its band and goes on the picture, by label (runs' once planned). */
    private final Map<String, Place> places = new LinkedHashMap<>();
    /** The frames the stream carries ({@link #plan}); null until planned. */
    private long[] planned;
    /** The part of each band the stream carries, stacked (planned with the frames). */
    private List<Scene.Window> windows;

    /**
     * A run of drawn layers: frames {@code [from, to)} of the stream, shown from frame {@code shift} of its segment on,
     * its layers {@code [firstLayer, endLayer)} of the scene, in band {@code band}.
     */
    void run(int from, int to, int shift, int band, int firstLayer, int endLayer, String label) {
        cuts.add(new Cut(from, to, shift, null, band, firstLayer, endLayer, label));
    }

    /**
     * Captions: frames {@code [from, to)}, each kept, shown at {@code times} (an expression of {@code N}, ready for the
     * graph), rows {@code top} to {@code height} of the canvas.
     */
    void captions(int from, int to, String times, int top, int width, int height, String label) {
        cuts.add(new Cut(from, to, 0, times, 0, 0, 0, label));
        places.put(label, new Place(0, top, width, height - top));
    }

    boolean isEmpty() {
        return cuts.isEmpty();
    }

    /**
     * The frames of the {@code frames} of {@code scene} that the stream carries: those whose layers' states differ
     * from the frame before ({@link FrameRenderer#changes}), each cut's first and last (its branch starts and ends
     * where it did), and every frame of the captions (their graph times each frame itself). Plans each run's strip
     * with the same renderer.
     */
    long[] plan(Scene scene, Map<String, Path> fonts, long frames) {
        if (planned == null) {
            Set<Long> kept = new HashSet<>();
            for (Cut cut : cuts) {
                kept.add((long) cut.from());
                kept.add((long) cut.to() - 1);
                if (cut.times() != null) {
                    LongStream.range(cut.from(), cut.to()).forEach(kept::add);
                }
            }
            try (FrameRenderer renderer = new FrameRenderer(scene, FontChain.of(fonts))) {
                planned = renderer.changes(frames, kept::contains);
                cuts.stream().filter(cut -> cut.times() == null)
                        .forEach(cut -> places.put(cut.label(), place(cut, scene, renderer)));
            } catch (SceneException e) {
                throw new RenderException("the graphics engine refused " + e.getMessage());
            }
            windows = windows(scene);
        }
        return planned;
    }

    /**
     * Each band's window: the smallest rectangle holding the strips of every cut in it (a band serves a run of every
     * segment), stacked one under the other in band order (even sizes, so every top is even too).
     */
    private List<Scene.Window> windows(Scene scene) {
        int bands = cuts.stream().mapToInt(Cut::band).max().orElse(0) + 1;
        List<Scene.Window> stacked = new ArrayList<>();
        int top = 0;
        for (int band = 0; band < bands; band++) {
            int left = scene.width();
            int upper = scene.bandHeight();
            int right = 0;
            int lower = 0;
            for (Cut cut : cuts) {
                Place place = places.get(cut.label());
                if (cut.band() == band && place != null) {
                    left = Math.min(left, place.x());
                    upper = Math.min(upper, place.y());
                    right = Math.max(right, place.x() + place.width());
                    lower = Math.max(lower, place.y() + place.height());
                }
            }
            Scene.Window window = right <= left || lower <= upper
                    ? new Scene.Window(0, 0, 2, 2, top)
                    : new Scene.Window(left, upper, right - left, lower - upper, top);
            stacked.add(window);
            top += window.height();
        }
        return List.copyOf(stacked);
    }

    /** The frames the stream carries (call after {@link #plan}). */
    long[] frames() {
        return planned;
    }

    /** The part of each band the stream carries (call after {@link #plan}). */
    List<Scene.Window> windows() {
        return windows;
    }

    /** Each cut's branch on the planned stream, cropped to its strip in its band's window (call after {@link #plan}). */
    List<String> branches(int fps) {
        return cuts.stream().map(cut -> cut.branch(planned, fps, places.get(cut.label()), windows.get(cut.band())))
                .toList();
    }

    /**
     * Where the run of {@code cut} draws in its band: the union of its layers' extents, in whole even pixels inside
     * the canvas (so that the overlay's chroma lines up), or the whole band when a layer of it has keyframes (they may
     * take it anywhere). The conversion and the blend of its overlay then cover that strip, not the frame.
     */
    private static Place place(Cut cut, Scene scene, FrameRenderer renderer) {
        int width = scene.width();
        int height = scene.bandHeight();
        double left = width;
        double top = height;
        double right = 0;
        double bottom = 0;
        int bandTop = cut.band() * height;
        for (int i = cut.firstLayer(); i < cut.endLayer(); i++) {
            if (!scene.layers().get(i).keyframes().isEmpty()) {
                return new Place(0, 0, width, height);
            }
            var extent = renderer.extent(i);
            left = Math.min(left, extent.getLeft());
            top = Math.min(top, extent.getTop() - bandTop);
            right = Math.max(right, extent.getRight());
            bottom = Math.max(bottom, extent.getBottom() - bandTop);
        }
        int x0 = (int) Math.max(0, Math.floor(left)) & ~1;
        int y0 = (int) Math.max(0, Math.floor(top)) & ~1;
        int x1 = Math.min(width & ~1, ((int) Math.min(width, Math.ceil(right)) + 1) & ~1);
        int y1 = Math.min(height & ~1, ((int) Math.min(height, Math.ceil(bottom)) + 1) & ~1);
        if (x1 - x0 < 2 || y1 - y0 < 2) {
            return new Place(0, 0, 2, 2); // nothing of it inside the canvas
        }
        return new Place(x0, y0, x1 - x0, y1 - y0);
    }

    /**
     * The options that place the branch {@code label} on the picture, before the overlay's own (an overlay of a run
     * is added before the graph is planned: {@link #placed} fills them in).
     */
    static String at(String label) {
        return "{at:" + label + "}";
    }

    /** {@code graph} with each run's {@link #at} replaced by where its strip goes (call after {@link #plan}). */
    String placed(String graph) {
        String result = graph;
        for (Cut cut : cuts) {
            Place place = places.get(cut.label());
            if (cut.times() == null && place != null) {
                result = result.replace(at(cut.label()),
                        place.x() == 0 && place.y() == 0 ? "" : "x=" + place.x() + ":y=" + place.y() + ":");
            }
        }
        return result;
    }

    /** A strip of a band: its top left corner in the band, and its size. */
    private record Place(int x, int y, int width, int height) {
    }

    /**
     * Frames {@code [from, to)} of the drawn stream cut out into {@code label}: a run's frames (of band {@code band},
     * layers {@code [firstLayer, endLayer)}) shown from frame {@code shift} of its segment on, or captions' at
     * {@code times} (an expression of {@code N}, each frame of theirs kept).
     */
    private record Cut(int from, int to, int shift, String times, int band, int firstLayer, int endLayer,
            String label) {

        /**
         * The branch on the stream of {@code frames} (the plan, ascending, holding this cut's first and last), cropped
         * to {@code place} of its band, which the frame carries as {@code window}.
         */
        String branch(long[] frames, int fps, Place place, Scene.Window window) {
            int first = Arrays.binarySearch(frames, from);
            int end = Arrays.binarySearch(frames, to - 1) + 1;
            String timing = times != null ? times : FilterGraph.value(runTimes(frames, first, end, fps));
            return "trim=start_frame=" + first + ":end_frame=" + end + ",setpts=" + timing + ",crop=" + place.width()
                    + ":" + place.height() + ":" + (place.x() - window.x()) + ":"
                    + (window.top() + place.y() - window.y()) + "[" + label + "]";
        }

        /**
         * The presentation time of the run's {@code N}th frame kept: each stretch of consecutive frames kept is
         * {@code N} plus the frames left out before it (and {@code shift}), found by a balanced search as
         * {@link EngineText#startOf} does, rounded to the input's time base (1/fps: whole frames).
         */
        private String runTimes(long[] frames, int first, int end, int fps) {
            List<Integer> starts = new ArrayList<>();
            List<Long> gaps = new ArrayList<>();
            for (int m = first; m < end; m++) {
                if (m == first || frames[m] != frames[m - 1] + 1) {
                    starts.add(m - first);
                    gaps.add(frames[m] - from - (m - first) + shift);
                }
            }
            return "round((" + spans(starts, gaps, 0, starts.size()) + ")/(" + fps + "*TB))";
        }

        private static String spans(List<Integer> starts, List<Long> gaps, int lo, int hi) {
            if (hi - lo == 1) {
                return gaps.get(lo) == 0 ? "N" : "N+" + gaps.get(lo);
            }
            int mid = (lo + hi) >>> 1;
            return "if(lt(N," + starts.get(mid) + ")," + spans(starts, gaps, lo, mid) + ","
                    + spans(starts, gaps, mid, hi) + ")";
        }
    }
}
