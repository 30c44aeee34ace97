package io.pmedia.media.render;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.render.speech.EspeakSpeech;
import io.pmedia.media.render.speech.SpeechEngine;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.MotionFacts;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.TemplateValidator;
import io.pmedia.media.template.Templates;

/**
 * scripts/contact-sheets.sh: every sample template of deploy/local/templates rendered by the engine as the worker
 * renders it (speech synthesised, captions burned in), with test-pattern pictures for its asset slots, and eight of
 * its frames, evenly spaced, tiled into docs/samples/&lt;use-case-id&gt;.png; and the name card once per script
 * (docs/samples/name-card-scripts.png): what a reviewer looks at before a render feature is done.
 */
public final class ContactSheets {

    /** The sample data of each sample: the name in a script of its own where the sample shows a name large. */
    static final Map<String, String> DATA = Map.ofEntries(
            Map.entry("greeting",
                    "{\"personalization_fields\": {\"name\": \"श्रुति\", \"offer\": \"20% off your next order\"}}"),
            Map.entry("classic-card",
                    "{\"personalization_fields\": {\"greeting\": \"Dear Ada\", \"caption\": \"Lisbon, 2019\"}}"),
            Map.entry("vertical-short",
                    "{\"personalization_fields\": {\"name\": \"สมชาย\", \"product\": \"Trail shoes\"}}"),
            Map.entry("brand-story",
                    "{\"personalization_fields\": {\"name\": \"محمد\", \"offer\": \"free delivery\"}}"),
            Map.entry("showcase",
                    "{\"personalization_fields\": {\"name\": \"José 🎉\", \"offer\": \"a free upgrade\"}}"),
            Map.entry("product-tour",
                    "{\"personalization_fields\": {\"name\": \"Asha Menon\", \"offer\": \"20% off\"}}"),
            Map.entry("name-card",
                    "{\"personalization_fields\": {\"name\": \"王伟\", \"title\": \"Head of design, Shanghai\"}}"),
            Map.entry("welcome", "{\"personalization_fields\": {\"name\": \"محمد\"}}"),
            Map.entry("birthday", "{\"personalization_fields\": {\"name\": \"José 🎉\"}}"),
            Map.entry("year-in-review",
                    "{\"personalization_fields\": {\"name\": \"श्रुति\", \"orders\": \"37\", \"saved\": \"₹4,200\"}}"),
            Map.entry("order-confirmation", "{\"personalization_fields\": {\"name\": \"王伟\", \"order\": \"A-1042\"}}"),
            Map.entry("event-invitation", "{\"personalization_fields\": {\"name\": \"김민준\"}}"));
    static final List<String> NAMES = List.of("王伟", "श्रुति", "สมชาย", "محمد", "שרה", "José 🎉", "김민준", "さくら");

    public static void main(String[] args) throws Exception {
        Path samples = Path.of(args.length > 0 ? args[0] : "deploy/local/templates");
        Path out = Files.createDirectories(Path.of(args.length > 1 ? args[1] : "docs/samples"));
        Path scratch = Files.createTempDirectory("contact-sheets");
        Map<String, Path> motionFiles = motions(samples.resolveSibling("motions"));
        Map<String, MotionFacts> motions = new TreeMap<>();
        for (Map.Entry<String, Path> motion : motionFiles.entrySet()) {
            motions.put(motion.getKey(), MotionFacts.of(LottieFile.check(Files.readAllBytes(motion.getValue()))));
        }
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);
        SpeechEngine speech = new EspeakSpeech("espeak-ng", Duration.ofSeconds(30));
        var gallery = Templates.JSON.createArrayNode();
        try (var files = Files.list(samples)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String json = Files.readString(file).replace("@PMEDIA_SAMPLE_ASSETS@", "https://samples.example")
                        .replace("@PMEDIA_DEMO_CLIENT_ID@", java.util.UUID.randomUUID().toString());
                TemplateDefinition template = Templates.parse(json);
                List<String> problems = TemplateValidator.validate(template,
                        new TemplateValidator.Registered(java.util.Set.of(), motions));
                if (!problems.isEmpty()) {
                    throw new IllegalStateException(file + ": " + problems);
                }
                String id = template.useCaseId();
                Path work = Files.createDirectories(scratch.resolve(id));
                ResolvedVideo[] resolved = new ResolvedVideo[1];
                Path video = render(engine, speech, template, DATA.getOrDefault(id,
                        "{\"personalization_fields\": {\"name\": \"Ada\"}}"), work, resolved, motionFiles);
                sheet(video, out.resolve(id + ".png"), 8, template.canvas(), resolved[0].durationSeconds());
                System.out.println("docs/samples/" + id + ".png");
                var entry = gallery.addObject().put("use-case-id", id).put("name", template.name())
                        .put("description", template.description()).put("image", id + ".png")
                        .put("width", template.canvas().width()).put("height", template.canvas().height())
                        .put("duration-seconds", Math.round(resolved[0].durationSeconds() * 10) / 10.0);
                entry.put("lottie", !resolved[0].motions().isEmpty()).put("speaks",
                        !resolved[0].speeches().isEmpty());
            }
        }
        // what the console's gallery and /docs/gallery/ show: each sample's contact sheet, name and description
        Files.writeString(out.resolve("gallery.json"),
                Templates.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(gallery) + "\n");
        System.out.println("docs/samples/gallery.json");
        // the name card in eight scripts: one frame each, once the name has arrived
        TemplateDefinition card = Templates.parse(Files.readString(samples.resolve("name-card.json")));
        List<Path> frames = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            Path work = Files.createDirectories(scratch.resolve("script-" + i));
            Path video = render(engine, speech, card, "{\"personalization_fields\": {\"name\": "
                    + Templates.JSON.writeValueAsString(NAMES.get(i)) + "}}", work, new ResolvedVideo[1], Map.of());
            Path frame = work.resolve("frame.png");
            ffmpeg("-ss", "3", "-i", video.toString(), "-frames:v", "1", "-vf", "scale=640:-2", frame.toString());
            frames.add(frame);
        }
        tile(frames, "2x4", out.resolve("name-card-scripts.png"));
        System.out.println("docs/samples/name-card-scripts.png");
        RenderBench.delete(scratch);
    }

    /** The sample motions (deploy/local/motions), by name: what ./pmedia up registers as shared motions. */
    static Map<String, Path> motions(Path dir) throws IOException {
        Map<String, Path> motions = new TreeMap<>();
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                files.filter(f -> f.toString().endsWith(".json")).forEach(f -> motions.put(
                        f.getFileName().toString().replace(".json", ""), f));
            }
        }
        return motions;
    }

    /**
     * One render as the worker does it: speech synthesised, captions from it, test patterns for every asset, the
     * motions its lottie layers name from {@code motions}.
     */
    static Path render(RenderEngine engine, SpeechEngine speech, TemplateDefinition template, String data, Path work,
            ResolvedVideo[] resolved, Map<String, Path> motions) throws Exception {
        ResolvedVideo video = TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data(
                withAssets(template, data))));
        resolved[0] = video;
        Map<String, Path> assets = new TreeMap<>();
        int n = 0;
        for (Map.Entry<String, AssetKind> asset : video.assets().entrySet()) {
            String name = "asset-" + n++;
            assets.put(asset.getKey(), switch (asset.getValue()) {
                case VIDEO -> Media.clip(work, name + ".mp4", 640, 360, video.durationSeconds());
                case AUDIO -> Media.sound(work, name + ".wav", video.durationSeconds());
                default -> Media.image(work, name + ".png", 640, 480);
            });
        }
        for (String motion : video.motions()) {
            assets.put(ResolvedVideo.Lottie.fileKey(motion), motions.get(motion));
        }
        return FeatureBench.asWorker(engine, speech, video, assets, work).video();
    }

    /** The request's data with a picture for every asset slot the template declares. */
    private static String withAssets(TemplateDefinition template, String data) throws IOException {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Templates.JSON.readTree(data);
        var global = tree.putObject("global_assets");
        for (AssetKind kind : List.of(AssetKind.IMAGE, AssetKind.VIDEO, AssetKind.ICON)) {
            int slots = template.assetsOrEmpty().of(kind).size();
            if (slots > 0) {
                String key = kind == AssetKind.IMAGE ? "images" : kind == AssetKind.VIDEO ? "videos" : "icons";
                var urls = global.putArray(key);
                for (int i = 0; i < slots; i++) {
                    urls.add("https://samples.example/" + key + "/" + i);
                }
            }
        }
        return Templates.JSON.writeValueAsString(tree);
    }

    /** {@code count} frames evenly spaced over the video (the middle of each part), tiled, each 320 pixels wide. */
    static void sheet(Path video, Path png, int count, TemplateDefinition.Canvas canvas, double seconds)
            throws IOException {
        boolean tall = canvas.height() > canvas.width();
        Path dir = Files.createTempDirectory(png.getParent().toAbsolutePath(), ".frames");
        List<Path> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path frame = dir.resolve("frame-" + i + ".png");
            ffmpeg("-ss", Double.toString((i + 0.5) * seconds / count), "-i", video.toString(), "-frames:v", "1",
                    "-vf", tall ? "scale=-2:480" : "scale=320:-2", frame.toString());
            frames.add(frame);
        }
        tile(frames, tall ? "8x1" : "4x2", png);
        RenderBench.delete(dir);
    }

    /** The frames side by side in a grid ({@code layout}: columns x rows) on white, as one PNG. */
    static void tile(List<Path> frames, String layout, Path png) {
        List<String> tile = new ArrayList<>();
        StringBuilder inputs = new StringBuilder();
        for (int i = 0; i < frames.size(); i++) {
            tile.addAll(List.of("-i", frames.get(i).toString()));
            inputs.append('[').append(i).append(":v]");
        }
        tile.addAll(List.of("-filter_complex", inputs + "concat=n=" + frames.size() + ":v=1:a=0,tile=" + layout
                + ":padding=6:margin=6:color=white", "-frames:v", "1", png.toString()));
        ffmpeg(tile.toArray(String[]::new));
    }

    private static void ffmpeg(String... args) {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-y"));
        command.addAll(List.of(args));
        run(command);
    }

    private static void run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).inheritIO().start();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("failed: " + String.join(" ", command));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
