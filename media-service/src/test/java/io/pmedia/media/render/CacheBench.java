package io.pmedia.media.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pmedia.events.RenderInput;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.SampleMedia;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;
import io.pmedia.media.worker.ChunkCache;
import io.pmedia.media.worker.DirectoryKeeper;

/**
 * The chunk-cache benchmark of issue 25 (not a test), through the engine and the cache as a worker with a warm local
 * cache runs them: for {@code product-tour} (one 30 s shot, the name on screen 3 s and the offer 3 s),
 * {@code brand-story} (a static intro and outro around a personal middle), {@code product-launch} (the same in motion:
 * an animated reveal and call around a personal middle, every text and shape drawn by the graphics engine) and
 * {@code greeting} (all personal), a full
 * render of a request against its cached render (its personal runs rendered, the static ones and the sound from the
 * cache, joined), alternating, each streaming as a realtime render does. Run with {@code bench/render/run.sh cache
 * [runs] [samples]}
 * ({@code samples}: comma-separated, default all).
 */
public final class CacheBench {

    static final String ASSETS = "s3://pmedia/inputs/" + UUID.randomUUID() + "/samples";
    static final Duration LIMIT = Duration.ofSeconds(240);
    /**
     * A motion template on Lottie (issue 36): a Lottie intro (the confetti burst, its text fixed), the customer's name
     * in motion for three seconds, a Lottie outro (the seal, its text fixed): only the name's seconds are personal.
     */
    static final String LOTTIE_MOTION = """
            {"use-case-id": "lottie-motion", "name": "Lottie motion",
             "canvas": {"width": 1280, "height": 720, "fps": 30, "background": "#240046"},
             "fields": [{"name": "name", "required": true}, {"name": "offer"}],
             "segments": [
               {"id": "intro", "duration": 3, "layers": [
                 {"type": "lottie", "motion": "confetti-burst", "width": 1280, "height": 720,
                  "text": {"NAME": "Happy birthday"}}]},
               {"id": "name", "duration": 3, "background": {"color": "#3c096c"}, "layers": [
                 {"type": "text", "text": "{{name}}", "size": 96, "font": "sans-bold",
                  "animate": {"in": {"type": "slide", "by": "letter", "from": "down", "stagger": 0.04}}}]},
               {"id": "outro", "duration": 4, "background": {"color": "#f4f6fa"}, "layers": [
                 {"type": "lottie", "motion": "check-seal", "width": 1280, "height": 720,
                  "text": {"ORDER": "See you soon"}}]}]}""";

    private CacheBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path scratch = Files.createTempDirectory("pmedia-cache-bench");
        try {
            run(runs, args.length > 1 ? List.of(args[1].split(",")) : List.of(), scratch);
        } finally {
            RenderBench.delete(scratch);
        }
    }

    /** @param only the samples to measure (empty: all) */
    private static void run(int runs, List<String> only, Path scratch) throws Exception {
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG")),
                Fonts.DEFAULT_DIRECTORY);
        Path photo = Media.image(scratch, "photo.png", 800, 800);
        Map<String, Path> assets = new HashMap<>(SampleMedia.productTourAssets(ASSETS));
        assets.put(RenderBench.PHOTO, photo);
        RenderInput input = RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": "Ada Lovelace", "offer": "20% off your next order"},
                 "global_assets": {"images": ["PHOTO"]}}""".replace("PHOTO", RenderBench.PHOTO)));
        RenderInput words = RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": "Ada Lovelace", "offer": "20% off your next order"}}"""));
        ChunkCache cache = new ChunkCache(new DirectoryKeeper(Files.createDirectories(scratch.resolve("cache"))),
                Templates.JSON, new SimpleMeterRegistry(), true);
        ChunkCache.Scope scope = new ChunkCache.Scope(UUID.randomUUID(), UUID.randomUUID(), 1);

        System.out.printf(Locale.ROOT, "chunk-cache benchmark, %s, %s (%d cores), %s; %d runs of each, alternating%n",
                LocalDate.now(), RenderBench.cpu(), Runtime.getRuntime().availableProcessors(),
                RenderBench.ffmpegVersion(engine), runs);
        for (String motion : List.of("confetti-burst", "check-seal")) {
            assets.put(ResolvedVideo.Lottie.fileKey(motion), SampleMedia.motionFile(motion));
        }
        for (String[] sample : new String[][]{{"product-tour", "0.25"}, {"brand-story", "0.35"},
                {"product-launch", "0.35"}, {"lottie-motion", "0.35"}, {"greeting", "1.02"}}) {
            if (!only.isEmpty() && !only.contains(sample[0])) {
                continue;
            }
            // product-tour and product-launch take no image
            ResolvedVideo video = TemplateResolver.resolve(Templates.parse(sample[0].equals("lottie-motion")
                    ? LOTTIE_MOTION
                    : SampleMedia.sampleTemplate(sample[0], scope.clientId(), ASSETS)),
                    sample[0].startsWith("product-") || sample[0].startsWith("lottie-") ? words : input);
            // the cache, warm: the static runs and the sound rendered once, as a first request would have
            cached(engine, cache, scope, video, assets, scratch.resolve("warm-" + sample[0]));
            full(engine, video, assets, scratch.resolve("warm-full-" + sample[0]));
            List<Double> fullTimes = new ArrayList<>();
            List<Double> cachedTimes = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                Path f = scratch.resolve(sample[0] + "-f" + i);
                Path c = scratch.resolve(sample[0] + "-c" + i);
                if (i % 2 == 0) {
                    fullTimes.add(full(engine, video, assets, f));
                    cachedTimes.add(cached(engine, cache, scope, video, assets, c));
                } else {
                    cachedTimes.add(cached(engine, cache, scope, video, assets, c));
                    fullTimes.add(full(engine, video, assets, f));
                }
            }
            double full = RenderBench.median(fullTimes);
            double cachedMedian = RenderBench.median(cachedTimes);
            long personal = io.pmedia.media.worker.ChunkPlan.of(video, io.pmedia.media.worker.ChunkPlan.resolved(video),
                    video.canvas().fps()).chunks().stream().filter(c -> c.personal()).count();
            System.out.printf(Locale.ROOT, """
                    %s: %.1f s at %dx%d, %d fps; %d of %d chunks personal
                      full render   : median %.3f s   %.1f renders/min
                      cached render : median %.3f s   %.1f renders/min
                      cached / full : %.3f (goal <= %s)
                    """, sample[0], video.durationSeconds(), video.canvas().width(), video.canvas().height(),
                    video.canvas().fps(), personal, (video.frames() + video.canvas().fps() - 1) / video.canvas().fps(),
                    full, 60 / full, cachedMedian, 60 / cachedMedian, cachedMedian / full, sample[1]);
        }
    }

    private static double full(RenderEngine engine, ResolvedVideo video, Map<String, Path> assets, Path work)
            throws Exception {
        Files.createDirectories(work);
        long started = System.nanoTime();
        engine.render(video, assets, List.of(), List.of(), true, work, LIMIT);
        double seconds = (System.nanoTime() - started) / 1e9;
        RenderBench.delete(work);
        return seconds;
    }

    private static double cached(RenderEngine engine, ChunkCache cache, ChunkCache.Scope scope, ResolvedVideo video,
            Map<String, Path> assets, Path work) throws Exception {
        Files.createDirectories(work);
        long started = System.nanoTime();
        cache.render(engine, scope, video, assets, List.of(), List.of(), true, work, LIMIT);
        double seconds = (System.nanoTime() - started) / 1e9;
        RenderBench.delete(work);
        return seconds;
    }
}
