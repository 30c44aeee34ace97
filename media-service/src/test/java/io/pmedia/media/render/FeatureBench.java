package io.pmedia.media.render;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.events.RenderInput;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.render.speech.Captions;
import io.pmedia.media.render.speech.EspeakSpeech;
import io.pmedia.media.render.speech.SpeechEngine;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;

/**
 * The template-feature benchmark of issue 14 (not a test), on the demo template {@code greeting} through the engine:
 * the four renditions of docs/templates.md against the single MP4 in one run, the time a speech layer adds (synthesis
 * + mixing), and a preview's latency (one still, warm). Run with {@code bench/render/run.sh features [runs]}.
 */
public final class FeatureBench {

    private FeatureBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path scratch = Files.createTempDirectory("pmedia-feature-bench");
        try {
            run(runs, scratch);
        } finally {
            RenderBench.delete(scratch);
        }
    }

    private static void run(int runs, Path scratch) throws Exception {
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG")),
                Fonts.DEFAULT_DIRECTORY);
        SpeechEngine speech = new EspeakSpeech("espeak-ng", Duration.ofSeconds(30));
        ObjectNode greeting = (ObjectNode) Templates.JSON.readTree(
                Files.readString(RenderBench.locate("deploy/local/templates/greeting.json")));
        TemplateDefinition single = Templates.JSON.treeToValue(greeting, TemplateDefinition.class);

        ObjectNode four = greeting.deepCopy();
        ArrayNode outputs = four.putArray("outputs");
        outputs.addObject().put("name", "main").put("format", "mp4").put("height", 720);
        outputs.addObject().put("name", "mobile").put("format", "mp4").put("height", 360);
        outputs.addObject().put("name", "web").put("format", "webm");
        outputs.addObject().put("name", "teaser").put("format", "gif").put("height", 240).put("fps", 10)
                .put("duration", 3);
        TemplateDefinition renditions = Templates.JSON.treeToValue(four, TemplateDefinition.class);

        ObjectNode spoken = greeting.deepCopy();
        ((ArrayNode) spoken.get("segments").get(0).get("layers")).addObject().put("id", "say").put("type", "speech")
                .put("text", "Hello {{name}}, we made this video for you.").put("start", 0.3);
        TemplateDefinition withSpeech = Templates.JSON.treeToValue(spoken, TemplateDefinition.class);

        Path photo = Media.image(scratch, "photo.png", 800, 800);
        Map<String, Path> assets = Map.of(RenderBench.PHOTO, photo);
        RenderInput input = RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": "Ada Lovelace", "offer": "20% off your next order"},
                 "global_assets": {"images": ["PHOTO"]}}""".replace("PHOTO", RenderBench.PHOTO)));

        render(engine, speech, single, input, assets, scratch.resolve("warm"));
        List<Double> singleTimes = new ArrayList<>();
        List<Double> fourTimes = new ArrayList<>();
        List<Double> speechTimes = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            // alternating, so that drift in the machine's load falls on all three alike
            singleTimes.add(render(engine, speech, single, input, assets, scratch.resolve("s" + i)));
            fourTimes.add(render(engine, speech, renditions, input, assets, scratch.resolve("r" + i)));
            speechTimes.add(render(engine, speech, withSpeech, input, assets, scratch.resolve("v" + i)));
        }

        ResolvedVideo video = TemplateResolver.resolve(single, input);
        ResolvedVideo.Still still = video.stillAt(1.5);
        List<Double> previews = new ArrayList<>();
        for (int i = 0; i < 20 + runs * 10; i++) {
            Path work = Files.createDirectories(scratch.resolve("p" + i));
            long started = System.nanoTime();
            engine.still(TemplateResolver.resolve(single, input).stillAt(1.5), assets, work, Duration.ofSeconds(20));
            if (i >= 10) {
                previews.add((System.nanoTime() - started) / 1e9);
            }
            RenderBench.delete(work);
        }
        Collections.sort(previews);
        double singleMedian = RenderBench.median(singleTimes);
        double fourMedian = RenderBench.median(fourTimes);
        double speechMedian = RenderBench.median(speechTimes);
        System.out.printf(Locale.ROOT,
                """
                        template-feature benchmark, %s, %s (%d cores), %s
                        template greeting: %.1f s at %dx%d, %d fps; %d runs of each, alternating, after a warm-up
                        single MP4                                  : median %.3f s
                        four renditions (720p mp4, 360p mp4, webm, gif teaser): median %.3f s   ratio %.2f (goal <= 1.6)
                        with a speech layer (espeak-ng + mix)        : median %.3f s   added %.3f s (goal <= 0.2)
                        preview (one still at 1.5 s, segment %s, warm, %d samples): p50 %.0f ms, p99 %.0f ms (goal p50 <= 150, p99 <= 300)
                        """,
                LocalDate.now(), RenderBench.cpu(), Runtime.getRuntime().availableProcessors(),
                RenderBench.ffmpegVersion(engine), video.durationSeconds(), single.canvas().width(),
                single.canvas().height(), single.canvas().fps(), runs, singleMedian, fourMedian,
                fourMedian / singleMedian, speechMedian, speechMedian - singleMedian,
                still.video().segments().get(0).id(), previews.size(), percentile(previews, 0.5) * 1000,
                percentile(previews, 0.99) * 1000);
    }

    /** One render as the worker does it: speech synthesised, then the engine. */
    private static double render(RenderEngine engine, SpeechEngine speech, TemplateDefinition template,
            RenderInput input, Map<String, Path> assets, Path work) throws Exception {
        Files.createDirectories(work);
        long started = System.nanoTime();
        asWorker(engine, speech, TemplateResolver.resolve(template, input), assets, work);
        double seconds = (System.nanoTime() - started) / 1e9;
        RenderBench.delete(work);
        return seconds;
    }

    /** {@code video} rendered as the worker renders it: its speech synthesised, captions from what was spoken. */
    static RenderEngine.RenderOutput asWorker(RenderEngine engine, SpeechEngine speech, ResolvedVideo video,
            Map<String, Path> assets, Path work) {
        List<Path> wavs = new ArrayList<>();
        List<Double> lengths = new ArrayList<>();
        for (ResolvedVideo.TimedSpeech timed : video.speeches()) {
            Path wav = work.resolve("speech-source-" + wavs.size() + ".wav");
            speech.synthesize(timed.speech(), wav);
            wavs.add(wav);
            lengths.add(SpeechEngine.seconds(wav));
        }
        return engine.render(video, assets, wavs, Captions.cues(video, lengths), work, Duration.ofSeconds(300));
    }

    private static double percentile(List<Double> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }
}
