package io.pmedia.media.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.pmedia.media.render.FfmpegRunner;
import io.pmedia.media.render.Fonts;
import io.pmedia.media.render.Likeness;
import io.pmedia.media.render.RenderEngine;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.SampleMedia;
import io.pmedia.media.template.Templates;

/**
 * The engine's side of the chunk cache, without the store: the runs of a plan rendered as pieces (a window of one
 * segment, or the whole graph cut where a transition crosses), the sound alone, joined without re-encoding, equal a
 * full render of the same request frame by frame, in length and in sound, for the sample templates.
 */
class ChunkRenderingTest {

    static final String ASSETS = "s3://pmedia/inputs/" + UUID.randomUUID() + "/samples";
    static final Duration LIMIT = Duration.ofSeconds(240);

    @TempDir
    Path dir;

    static ResolvedVideo resolve(String name, String data) {
        return Templates.resolve(Templates.parse(SampleMedia.sampleTemplate(name, UUID.randomUUID(), ASSETS)), data);
    }

    @ParameterizedTest
    @ValueSource(strings = {"product-tour", "brand-story", "greeting", "showcase"})
    void theJoinedRunsOfASampleEqualItsFullRender(String name) throws Exception {
        ResolvedVideo video = resolve(name, """
                {"personalization_fields": {"name": "Asha Menon", "offer": "20% off: [x];drawbox"}}""");
        Map<String, Path> assets = new HashMap<>(SampleMedia.productTourAssets(ASSETS));
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);
        Path fullWork = Files.createDirectories(dir.resolve("full"));
        Path full = engine.render(video, assets, fullWork, LIMIT).video();

        Path work = Files.createDirectories(dir.resolve("chunks"));
        ChunkPlan plan = ChunkCache.plan(video);
        List<Path> pieces = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        for (ChunkPlan.Run run : plan.runs()) {
            pieces.add(engine.renderRange(video, run.firstFrame(), run.endFrame(), "piece-" + pieces.size() + ".mp4",
                    assets, work, LIMIT));
            starts.add(run.firstFrame());
        }
        Path sound = engine.renderSound(video, "sound.m4a", assets, List.of(), work, LIMIT);
        Path joined = engine.assemble(video, pieces, starts, sound, assets, List.of(), true, work, LIMIT).video();

        assertThat(Likeness.frames(joined)).isEqualTo(video.frames()).isEqualTo(Likeness.frames(full));
        FfmpegRunner ffmpeg = FfmpegRunner.locate(null);
        assertThat(ffmpeg.probe(joined).durationSeconds()).isCloseTo(ffmpeg.probe(full).durationSeconds(),
                within(1.0 / 30));
        List<Double> ssim = Likeness.ssim(joined, full, dir);
        assertThat(ssim).hasSize(video.frames());
        assertThat(ssim).allSatisfy(value -> assertThat(value).isGreaterThanOrEqualTo(0.98));
        List<Double> levels = Likeness.levels(Likeness.samples(joined), Likeness.RATE / 10);
        List<Double> expected = Likeness.levels(Likeness.samples(full), Likeness.RATE / 10);
        assertThat(levels).hasSameSizeAs(expected);
        for (int i = 0; i < levels.size(); i++) {
            if (expected.get(i) > -60) {
                assertThat(levels.get(i)).as("level of 100 ms window %d", i).isCloseTo(expected.get(i), within(0.5));
            }
        }
    }
}
