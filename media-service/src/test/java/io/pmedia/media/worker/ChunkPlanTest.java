package io.pmedia.media.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.Templates;

/** Which ~1 s chunks of a render depend on the request (ChunkPlan), at 30 fps with 30-frame chunks. */
class ChunkPlanTest {

    static final String DATA = """
            {"personalization_fields": {"name": "Asha"}}""";

    static ResolvedVideo video(String segments) {
        return Templates.resolve(Templates.parse("""
                {"use-case-id": "chunks", "name": "Chunks",
                 "canvas": {"width": 320, "height": 180, "fps": 30, "background": "#000000"},
                 "fields": [{"name": "name", "required": true}],
                 "segments": %s}""".formatted(segments)), DATA);
    }

    /** The layers (segment, layer) that show the request; no background does. */
    static ChunkPlan.Dependence personal(String... layers) {
        Set<String> marked = Set.of(layers);
        return new ChunkPlan.Dependence() {
            @Override
            public boolean layer(int segment, int layer) {
                return marked.contains(segment + "/" + layer);
            }

            @Override
            public boolean background(int segment) {
                return false;
            }
        };
    }

    static List<Boolean> personalChunks(ChunkPlan plan) {
        return plan.chunks().stream().map(ChunkPlan.Chunk::personal).toList();
    }

    @Test
    void aLayerOnScreenAcrossAChunkBoundaryMakesBothChunksPersonal() {
        ChunkPlan plan = ChunkPlan.of(video("""
                [{"id": "tour", "duration": 5, "layers": [
                  {"id": "title", "type": "text", "text": "Tour"},
                  {"id": "hello", "type": "text", "text": "Hi {{name}}", "start": 1.5, "end": 2.5}]}]"""),
                personal("0/1"), 30);

        assertThat(personalChunks(plan)).containsExactly(false, true, true, false, false);
        assertThat(plan.personalRuns()).containsExactly(new int[]{1, 2});
        assertThat(plan.chunks()).extracting(ChunkPlan.Chunk::firstFrame).containsExactly(0, 30, 60, 90, 120);
    }

    @Test
    void aFadeInStartingBeforeABoundaryCountsFromItsFirstFrame() {
        ChunkPlan plan = ChunkPlan.of(video("""
                [{"id": "tour", "duration": 4, "fade-out": 1, "layers": [
                  {"id": "hello", "type": "text", "text": "Hi {{name}}", "start": 1.9, "end": 3, "fade-in": 0.5}]}]"""),
                personal("0/0"), 30);

        assertThat(personalChunks(plan)).as("the segment's own fade-out is the same for everyone")
                .containsExactly(false, true, true, false);
    }

    @Test
    void aTransitionIntoAPersonalSegmentMakesTheSharedFramesPersonal() {
        ChunkPlan plan = ChunkPlan.of(video("""
                [{"id": "a", "duration": 3, "transition": {"type": "wipeleft", "duration": 0.5}, "layers": [
                  {"id": "title", "type": "text", "text": "Tour"}]},
                 {"id": "b", "duration": 3, "layers": [
                  {"id": "hello", "type": "text", "text": "Hi {{name}}", "end": 1}]}]"""),
                personal("1/0"), 30);

        // b starts at frame 75 (2.5 s), while a's last half second still shows: chunk 2 holds the wipe
        assertThat(personalChunks(plan)).containsExactly(false, false, true, true, false, false);
        assertThat(plan.chunks().get(5).frames()).as("165 frames: the last chunk is short").isEqualTo(15);
    }

    @Test
    void speechIsPersonalWhileItSpeaks() {
        ChunkPlan plan = ChunkPlan.of(video("""
                [{"id": "tour", "duration": 4, "layers": [
                  {"id": "say", "type": "speech", "text": "Welcome", "voice": "en", "start": 1, "end": 2}]}]"""),
                personal(), 30);

        assertThat(personalChunks(plan)).containsExactly(false, true, false, false);
    }

    @Test
    void aStaticTemplateHasNoPersonalRunAndAPersonalBackgroundCoversItsSegment() {
        ResolvedVideo video = video("""
                [{"id": "a", "duration": 2, "layers": [{"id": "title", "type": "text", "text": "Tour"}]},
                 {"id": "b", "duration": 2, "layers": [{"id": "title", "type": "text", "text": "End"}]}]""");

        assertThat(ChunkPlan.of(video, personal(), 30).personalRuns()).isEmpty();
        ChunkPlan.Dependence background = new ChunkPlan.Dependence() {
            @Override
            public boolean layer(int segment, int layer) {
                return false;
            }

            @Override
            public boolean background(int segment) {
                return segment == 1;
            }
        };
        assertThat(personalChunks(ChunkPlan.of(video, background, 30))).containsExactly(false, false, true, true);
    }
}
