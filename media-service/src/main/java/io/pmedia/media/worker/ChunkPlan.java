package io.pmedia.media.worker;

import java.util.ArrayList;
import java.util.List;

import io.pmedia.media.template.ResolvedVideo;

/**
 * The plan of the chunk-level cache ({@link ChunkCache}): a render's timeline cut into
 * chunks of one stream segment (about 1 s, {@code chunkFrames} frames), each starting on a keyframe of the piece
 * encoding (a keyframe every second), and whether each chunk depends on the request. A chunk is personal when
 * something of the request is visible or audible in it: a personal layer between its {@code start} and {@code end}
 * (its fades lie inside that span), a personal background over its segment, any speech while it speaks, and, since
 * segments overlap during a transition, whatever either side shows in the frames they share. Static chunks can be
 * rendered once per template version, variant, output and encoder setting and reused; a request then renders only
 * its personal runs.
 */
public record ChunkPlan(int chunkFrames, List<Chunk> chunks) {

    /** Chunk {@code index}: frames {@code [firstFrame, firstFrame + frames)} of the output. */
    public record Chunk(int index, int firstFrame, int frames, boolean personal) {
    }

    /** What of a resolved video depends on the request, as the resolver decided it. */
    public interface Dependence {

        /** Whether layer {@code layer} of segment {@code segment} shows something of the request. */
        boolean layer(int segment, int layer);

        /** Whether the background of segment {@code segment} is the request's. */
        boolean background(int segment);
    }

    public ChunkPlan {
        chunks = List.copyOf(chunks);
    }

    /** What the resolver marked as depending on the request ({@link ResolvedVideo.Segment#personalLayers()}). */
    public static Dependence resolved(ResolvedVideo video) {
        return new Dependence() {
            @Override
            public boolean layer(int segment, int layer) {
                return video.segments().get(segment).personalLayers().contains(layer);
            }

            @Override
            public boolean background(int segment) {
                return video.segments().get(segment).personalBackground();
            }
        };
    }

    /** Whether any chunk is the same for everyone. */
    public boolean anyStatic() {
        return chunks.stream().anyMatch(c -> !c.personal());
    }

    /**
     * The chunks as runs of consecutive chunks alike (all personal or all static), in order: what a render makes
     * as pieces, each from a keyframe.
     */
    public List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= chunks.size(); i++) {
            if (i == chunks.size() || chunks.get(i).personal() != chunks.get(start).personal()) {
                Chunk first = chunks.get(start);
                Chunk last = chunks.get(i - 1);
                runs.add(new Run(first.firstFrame(), last.firstFrame() + last.frames(), first.personal()));
                start = i;
            }
        }
        return runs;
    }

    /**
     * The runs ({@link #runs()}) with the personal ones cut at chunk boundaries until there are {@code parallel} of
     * them, or none is left of two chunks or more: the longest is halved first. Pieces render side by side, and a
     * single FFmpeg run keeps two cores busy only part of its life; every piece still starts on a keyframe.
     */
    public List<Run> runs(int parallel) {
        List<Run> runs = new ArrayList<>(runs());
        while (runs.stream().filter(Run::personal).count() < parallel) {
            Run longest = null;
            for (Run run : runs) {
                boolean halves = run.personal() && run.frames() > chunkFrames;
                if (halves && (longest == null || run.frames() > longest.frames())) {
                    longest = run;
                }
            }
            if (longest == null) {
                break;
            }
            int chunksIn = (longest.frames() + chunkFrames - 1) / chunkFrames;
            int cut = longest.firstFrame() + chunksIn / 2 * chunkFrames;
            int at = runs.indexOf(longest);
            runs.set(at, new Run(longest.firstFrame(), cut, true));
            runs.add(at + 1, new Run(cut, longest.endFrame(), true));
        }
        return runs;
    }

    /** Frames {@code [firstFrame, endFrame)} of the output, chunks alike. */
    public record Run(int firstFrame, int endFrame, boolean personal) {

        public int frames() {
            return endFrame - firstFrame;
        }
    }

    /** The chunks of {@code video}, {@code chunkFrames} frames each (the last may be shorter). */
    public static ChunkPlan of(ResolvedVideo video, Dependence dependence, int chunkFrames) {
        if (chunkFrames < 1) {
            throw new IllegalArgumentException("a chunk has at least one frame");
        }
        int fps = video.canvas().fps();
        int total = video.frames();
        boolean[] personal = new boolean[total];
        for (int k = 0; k < video.segments().size(); k++) {
            ResolvedVideo.Segment segment = video.segments().get(k);
            int first = video.startFrame(k);
            if (dependence.background(k)) {
                mark(personal, first, first + segment.frames());
            }
            List<ResolvedVideo.Layer> layers = segment.layers();
            for (int j = 0; j < layers.size(); j++) {
                ResolvedVideo.Layer layer = layers.get(j);
                if (layer instanceof ResolvedVideo.Speech || dependence.layer(k, j)) {
                    int from = first + (int) Math.floor(layer.start() * fps + 1e-9);
                    int to = first + Math.min(segment.frames(), (int) Math.ceil(layer.end() * fps - 1e-9));
                    mark(personal, from, to);
                }
            }
        }
        List<Chunk> chunks = new ArrayList<>();
        for (int first = 0, index = 0; first < total; first += chunkFrames, index++) {
            int frames = Math.min(chunkFrames, total - first);
            boolean any = false;
            for (int f = first; f < first + frames && !any; f++) {
                any = personal[f];
            }
            chunks.add(new Chunk(index, first, frames, any));
        }
        return new ChunkPlan(chunkFrames, chunks);
    }

    /** The runs of consecutive personal chunks, as {@code [first, last]} chunk indexes: what a request renders. */
    public List<int[]> personalRuns() {
        List<int[]> runs = new ArrayList<>();
        int start = -1;
        for (Chunk chunk : chunks) {
            if (chunk.personal() && start < 0) {
                start = chunk.index();
            } else if (!chunk.personal() && start >= 0) {
                runs.add(new int[]{start, chunk.index() - 1});
                start = -1;
            }
        }
        if (start >= 0) {
            runs.add(new int[]{start, chunks.size() - 1});
        }
        return runs;
    }

    private static void mark(boolean[] frames, int from, int to) {
        for (int f = Math.max(0, from); f < Math.min(frames.length, to); f++) {
            frames[f] = true;
        }
    }
}
