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
    void personalRunsAreHalvedAtChunkBoundariesUntilEachCoreHasOne() {
        ChunkPlan plan = ChunkPlan.of(video("""
                [{"id": "tour", "duration": 8, "layers": [
                  {"id": "hello", "type": "text", "text": "Hi {{name}}", "start": 1, "end": 6}]}]"""),
                personal("0/0"), 30);

        assertThat(plan.runs()).containsExactly(new ChunkPlan.Run(0, 30, false), new ChunkPlan.Run(30, 180, true),
                new ChunkPlan.Run(180, 240, false));
        assertThat(plan.runs(1)).isEqualTo(plan.runs());
        assertThat(plan.runs(2)).containsExactly(new ChunkPlan.Run(0, 30, false), new ChunkPlan.Run(30, 90, true),
                new ChunkPlan.Run(90, 180, true), new ChunkPlan.Run(180, 240, false));
        assertThat(plan.runs(4)).as("the longest first, never below one chunk")
                .containsExactly(new ChunkPlan.Run(0, 30, false), new ChunkPlan.Run(30, 60, true),
                        new ChunkPlan.Run(60, 90, true), new ChunkPlan.Run(90, 120, true),
                        new ChunkPlan.Run(120, 180, true), new ChunkPlan.Run(180, 240, false));
        assertThat(plan.runs(99)).filteredOn(ChunkPlan.Run::personal).hasSize(5)
                .allSatisfy(run -> assertThat(run.frames()).isEqualTo(30));
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

    static ResolvedVideo video(String segments, String data) {
        return Templates.resolve(Templates.parse("""
                {"use-case-id": "chunks", "name": "Chunks",
                 "canvas": {"width": 320, "height": 180, "fps": 30, "background": "#000000"},
                 "fields": [{"name": "name", "required": true}],
                 "assets": {"images": [{"name": "photo"}, {"name": "logo", "default": "https://a.example/logo.png"}]},
                 "segments": %s}""".formatted(segments)), data);
    }

    @Test
    void theResolverMarksOnlyTheLayersThatShowTheRequest() {
        ResolvedVideo video = video("""
                [{"id": "tour", "duration": 6, "layers": [
                  {"id": "title", "type": "text", "text": "Tour"},
                  {"id": "logo", "type": "image", "asset": 1, "width": 40, "height": 40},
                  {"id": "hello", "type": "text", "text": "Hi {{name}}", "start": 2, "end": 3},
                  {"id": "photo", "type": "image", "asset": 0, "width": 40, "height": 40, "start": 4.5, "end": 5}]}]""",
                """
                        {"personalization_fields": {"name": "Asha"}, "global_assets": {"images": ["https://a.example/me.png"]}}""");

        assertThat(video.segments().get(0).personalLayers())
                .as("the name and the request's photo, not the default logo")
                .containsExactly(2, 3);
        ChunkPlan plan = ChunkPlan.of(video, ChunkPlan.resolved(video), 30);
        assertThat(personalChunks(plan)).containsExactly(false, false, true, false, true, false);
        assertThat(plan.runs()).containsExactly(new ChunkPlan.Run(0, 60, false), new ChunkPlan.Run(60, 90, true),
                new ChunkPlan.Run(90, 120, false), new ChunkPlan.Run(120, 150, true),
                new ChunkPlan.Run(150, 180, false));
    }

    @Test
    void aKeyframedPictureOfTheRequestIsPersonalWhereItShowsAndOnlyThere() {
        ResolvedVideo video = video("""
                [{"id": "tour", "duration": 6, "layers": [
                  {"id": "logo", "type": "image", "asset": 1, "width": 40, "height": 40,
                   "keyframes": [{"time": 0, "x": -40}, {"time": 1, "x": 0}]},
                  {"id": "photo", "type": "image", "asset": 0, "width": 40, "height": 40, "start": 2, "end": 3.5,
                   "keyframes": [{"time": 0, "x": 300, "opacity": 0}, {"time": 1, "x": 0, "opacity": 1,
                     "easing": "ease-out"}]}]}]""",
                """
                        {"personalization_fields": {"name": "Asha"}, "global_assets": {"images": ["https://a.example/me.png"]}}""");

        List<ResolvedVideo.Layer> layers = video.segments().get(0).layers();
        assertThat(layers).allMatch(layer -> ((ResolvedVideo.Picture) layer).keyframed());
        assertThat(video.segments().get(0).personalLayers()).as("the request's photo, not the default logo")
                .containsExactly(1);
        assertThat(personalChunks(ChunkPlan.of(video, ChunkPlan.resolved(video), 30)))
                .containsExactly(false, false, true, true, false, false);
        assertThat(video.segments().get(0).withoutPersonal().layers()).as("the static frames keep the moving logo")
                .containsExactly(layers.get(0));
    }

    @Test
    void aKeyframedVideoOfTheRequestIsPersonalWhereItShowsAndOnlyThere() {
        ResolvedVideo video = Templates.resolve(Templates.parse("""
                {"use-case-id": "chunks", "name": "Chunks",
                 "canvas": {"width": 320, "height": 180, "fps": 30, "background": "#000000"},
                 "assets": {"videos": [{"name": "clip"}]},
                 "segments": [{"id": "tour", "duration": 6, "layers": [
                   {"type": "video", "asset": 0, "width": 40, "height": 40, "start": 2, "end": 3.5,
                    "keyframes": [{"time": 0, "x": 300, "opacity": 0}, {"time": 1, "x": 0, "opacity": 1}]}]}]}"""),
                """
                        {"global_assets": {"videos": ["https://a.example/me.mp4"]}}""");

        ResolvedVideo.Picture clip = (ResolvedVideo.Picture) video.segments().get(0).layers().get(0);
        assertThat(clip.keyframed()).isTrue();
        assertThat(video.segments().get(0).personalLayers()).containsExactly(0);
        assertThat(personalChunks(ChunkPlan.of(video, ChunkPlan.resolved(video), 30)))
                .containsExactly(false, false, true, true, false, false);
    }

    @Test
    void aPictureWithoutKeyframesIsWrittenAsBeforeSoItsChunksKeepTheirKeys() throws Exception {
        ResolvedVideo video = video("""
                [{"id": "tour", "duration": 1, "layers": [
                  {"id": "logo", "type": "image", "asset": 1, "width": 40, "height": 40}]}]""", DATA);

        assertThat(Templates.JSON.writeValueAsString(video.segments().get(0))).contains("\"motion\":null")
                .doesNotContain("keyframes");
    }

    @Test
    void aCohortVariantIsOtherContentTheSameForItsCohortAndItsPlaceholdersArePersonal() {
        String segments = """
                [{"id": "intro", "duration": 2, "layers": [{"id": "title", "type": "text", "text": "Welcome"}],
                  "variants": [{"cohorts": ["gold"], "layers": [
                    {"id": "title", "type": "text", "text": "Welcome, gold member"},
                    {"id": "hello", "type": "text", "text": "{{name}}", "start": 1}]}]},
                 {"id": "outro", "duration": 2, "layers": [{"id": "bye", "type": "text", "text": "Bye"}]}]""";
        ResolvedVideo plain = video(segments, """
                {"personalization_fields": {"name": "Asha"}}""");
        ResolvedVideo gold = video(segments, """
                {"personalization_fields": {"name": "Asha"}, "global_cohorts": [{"cohort": "gold"}]}""");

        assertThat(personalChunks(ChunkPlan.of(plain, ChunkPlan.resolved(plain), 30))).containsOnly(false);
        assertThat(personalChunks(ChunkPlan.of(gold, ChunkPlan.resolved(gold), 30)))
                .containsExactly(false, true, false, false);
        assertThat(gold.segments().get(0).withoutPersonal()).as("what the gold cohort shares is not the plain one")
                .isNotEqualTo(plain.segments().get(0).withoutPersonal());
    }

    @Test
    void speechIsPersonalForTheResolverToo() {
        ResolvedVideo video = video("""
                [{"id": "tour", "duration": 3, "layers": [
                  {"id": "say", "type": "speech", "text": "Welcome", "voice": "en", "start": 2}]}]""", DATA);

        assertThat(personalChunks(ChunkPlan.of(video, ChunkPlan.resolved(video), 30)))
                .containsExactly(false, false, true);
    }

    @Test
    void aLottieLayerWithAPersonalTextIsPersonalWhereItShowsAndOnlyThere() {
        ResolvedVideo video = video("""
                [{"id": "tour", "duration": 6, "layers": [
                  {"id": "intro", "type": "lottie", "motion": "intro", "width": 320, "height": 180, "end": 2},
                  {"id": "wish", "type": "lottie", "motion": "confetti", "width": 320, "height": 180, "start": 3,
                   "end": 4, "text": {"NAME": "Hi {{name}}"}},
                  {"id": "seal", "type": "lottie", "motion": "seal", "width": 320, "height": 180, "start": 4,
                   "text": {"ORDER": "thank you"}}]}]""", DATA);

        assertThat(video.segments().get(0).personalLayers()).as("only the one whose text has a placeholder")
                .containsExactly(1);
        assertThat(personalChunks(ChunkPlan.of(video, ChunkPlan.resolved(video), 30)))
                .containsExactly(false, false, false, true, false, false);
        assertThat(video.motions()).containsExactly("intro", "confetti", "seal");
    }
}
