package io.pmedia.media.render.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.Media;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.render.speech.Captions;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.render.speech.EspeakSpeech;
import io.pmedia.media.render.speech.SpeechEngine;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;

/**
 * The template features of docs/templates.md rendered with the machine's FFmpeg and espeak-ng: renditions, speech
 * with captions and ducking, transitions and motion; outputs read back with ffprobe and FFmpeg's own meters.
 */
class RenderFeaturesTest {

    static final String FEATURES = """
            {"use-case-id": "features", "name": "Features",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#102030"},
             "fields": [{"name": "name", "required": true}],
             "assets": {"images": [{"required": true}]},
             "audio": {"type": "track", "url": "https://a.example/music.wav", "volume": 0.5, "fade-in": 0.2,
                       "duck": 0.2},
             "captions": {"burn-in": true},
             "outputs": [{"name": "main", "format": "mp4"}, {"name": "mobile", "format": "mp4", "height": 90},
                         {"name": "web", "format": "webm"},
                         {"name": "teaser", "format": "gif", "height": 60, "fps": 5, "duration": 1}],
             "segments": [
               {"id": "one", "duration": 2, "transition": {"type": "wipeleft", "duration": 0.4}, "layers": [
                 {"id": "photo", "type": "image", "asset": 0, "x": 10, "y": 10, "width": 120, "height": 90,
                  "motion": "zoom-in"},
                 {"id": "hello", "type": "speech", "text": "Hello {{name}}, welcome", "voice": "en", "rate": 200,
                  "start": 0.2}]},
               {"id": "two", "duration": 2, "background": {"color": "#802020"}, "layers": [
                 {"id": "pan", "type": "image", "asset": 0, "width": 100, "height": 60, "motion": "pan-left"},
                 {"id": "bye", "type": "text", "text": "Bye {{name}}", "size": 20}]}
             ]}""";

    static final String IMAGE = "https://a.example/i.png";
    static final String MUSIC = "https://a.example/music.wav";

    static Path image;
    static Path sound;
    static RenderEngine engine;
    static SpeechEngine speech = new EspeakSpeech("espeak-ng", Duration.ofSeconds(30));

    @BeforeAll
    static void assets(@TempDir Path dir) {
        engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);
        image = Media.image(dir, "image.png", 200, 150);
        sound = Media.sound(dir, "tone.wav", 5);
    }

    static ResolvedVideo features(String name) {
        TemplateDefinition template = Templates.parse(FEATURES);
        return TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": %s}, "global_assets": {"images": ["%s"]}}"""
                .formatted(Templates.JSON.valueToTree(name), IMAGE))));
    }

    /** Synthesises the speech as the worker does and renders. */
    static Rendered render(ResolvedVideo video, Path work) throws IOException {
        Files.createDirectories(work);
        List<Path> wavs = new ArrayList<>();
        List<Double> spoken = new ArrayList<>();
        for (int i = 0; i < video.speeches().size(); i++) {
            Path wav = work.resolve("speech-source-" + i + ".wav");
            speech.synthesize(video.speeches().get(i).speech(), wav);
            wavs.add(wav);
            spoken.add(SpeechEngine.seconds(wav));
        }
        List<Cue> cues = Captions.cues(video, spoken);
        RenderEngine.RenderOutput output = engine.render(video, Map.of(IMAGE, image, MUSIC, sound), wavs, cues,
                work, Duration.ofSeconds(120));
        return new Rendered(output, cues, spoken);
    }

    record Rendered(RenderEngine.RenderOutput output, List<Cue> cues, List<Double> spoken) {
    }

    @Test
    void oneRunWritesEveryRenditionAtItsSizeFormatAndLength(@TempDir Path work) throws IOException {
        ResolvedVideo video = features("Ada");
        assertThat(video.durationSeconds()).as("two 2 s segments sharing a 0.4 s transition").isEqualTo(3.6);
        Rendered rendered = render(video, work);
        List<Path> outputs = rendered.output().outputs();
        assertThat(outputs).hasSize(4);
        FfmpegRunner runner = engine.runner();

        FfmpegRunner.Probe main = runner.probe(outputs.get(0));
        assertThat(main.width()).isEqualTo(320);
        assertThat(main.height()).isEqualTo(180);
        assertThat(main.durationSeconds()).isCloseTo(3.6, within(0.1));

        FfmpegRunner.Probe mobile = runner.probe(outputs.get(1));
        assertThat(mobile.width()).isEqualTo(160);
        assertThat(mobile.height()).isEqualTo(90);
        assertThat(mobile.durationSeconds()).isCloseTo(3.6, within(0.1));

        FfmpegRunner.Probe web = runner.probe(outputs.get(2));
        assertThat(web.streams()).extracting(FfmpegRunner.Stream::codec).containsExactlyInAnyOrder("vp9", "opus");
        assertThat(web.width()).isEqualTo(320);
        assertThat(web.durationSeconds()).isCloseTo(3.6, within(0.1));

        FfmpegRunner.Probe teaser = runner.probe(outputs.get(3));
        assertThat(teaser.streams()).extracting(FfmpegRunner.Stream::codec).containsExactly("gif");
        assertThat(teaser.height()).isEqualTo(60);
        assertThat(teaser.durationSeconds()).isCloseTo(1.0, within(0.25));
    }

    @Test
    void speechIsHeardWhereItIsCaptionedAndTheTrackIsDuckedUnderIt(@TempDir Path work) throws IOException {
        ResolvedVideo video = features("Ada");
        Rendered rendered = render(video, work);
        double spoken = rendered.spoken().get(0);
        assertThat(spoken).isGreaterThan(0.5);

        String vtt = Captions.webVtt(rendered.cues());
        assertThat(vtt).startsWith("WEBVTT\n\n00:00:00.200 --> ");
        assertThat(vtt).contains("Hello Ada, welcome");

        Path main = rendered.output().video();
        double withSpeech = meanVolume(main, 0.3, 0.5);
        Path silent = work.resolve("silent");
        ResolvedVideo mute = features("Ada");
        ResolvedVideo withoutSpeech = new ResolvedVideo(mute.canvas(), mute.segments().stream()
                .map(s -> new ResolvedVideo.Segment(s.id(), s.frames(), s.duration(), s.background(), s.fadeIn(),
                        s.fadeOut(), s.layers().stream().filter(l -> !(l instanceof ResolvedVideo.Speech)).toList(),
                        s.transition()))
                .toList(), mute.audio(), List.of(ResolvedVideo.Output.main()), false, false);
        Path plain = render(withoutSpeech, silent).output().video();
        double trackAlone = meanVolume(plain, 0.3, 0.5);
        assertThat(withSpeech).as("speech over a ducked track differs from the track alone").isNotCloseTo(trackAlone,
                within(1.0));
        double afterSpeech = 0.3 + spoken + 0.5;
        assertThat(meanVolume(main, afterSpeech, 0.5)).as("after the speech the track is back at its level")
                .isCloseTo(meanVolume(plain, afterSpeech, 0.5), within(1.0));
    }

    @Test
    void captionsAreEscapedAndSplitIntoShortCues() {
        ResolvedVideo video = features("<b>Ada</b> --> & 00:00:01.000");
        List<Cue> cues = Captions.cues(video, List.of(3.0));
        String vtt = Captions.webVtt(cues);
        assertThat(vtt).doesNotContain("<b>").contains("&lt;b&gt;Ada&lt;/b&gt; --&gt; &amp;");
        assertThat(vtt.lines().filter(line -> line.contains(" --> "))).hasSize(cues.size());
        assertThat(cues).allSatisfy(cue -> assertThat(cue.text().length()).isLessThanOrEqualTo(Captions.CUE_LENGTH));
        assertThat(cues).as("one cue at a time").allSatisfy(cue -> assertThat(cues.stream().filter(other -> other != cue
                && other.start() < cue.end() && cue.start() < other.end())).isEmpty());
    }

    @Test
    void theSameRequestWithAnotherNameSoundsDifferent(@TempDir Path work) throws IOException {
        double ada = render(features("Ada"), work.resolve("a")).spoken().get(0);
        double long_ = render(features("Maximiliana Konstantinopoulou"), work.resolve("b")).spoken().get(0);
        assertThat(long_).isGreaterThan(ada);
    }

    @Test
    void hostileTextIsSpokenAsWordsAndCaptionedLiterally(@TempDir Path work) throws IOException {
        String hostile = "O'Brien: 100% [x];drawbox [[h@'loU]] $(rm -rf /) `id` <speak>";
        assertThat(EspeakSpeech.spoken(hostile)).doesNotContain("[[").doesNotContain("]]")
                .contains("O'Brien: 100% [x];drawbox").contains("$(rm -rf /) `id` <speak>");
        Rendered rendered = render(features(hostile.substring(0, 30)), work);
        assertThat(rendered.spoken().get(0)).isGreaterThan(0.5);
        assertThat(Captions.webVtt(rendered.cues())).contains("O'Brien: 100% [x];drawbox");
    }

    /** Mean volume in dB of the main file's sound from {@code start} for {@code length} seconds. */
    static double meanVolume(Path file, double start, double length) throws IOException {
        List<String> command = List.of(engine.runner().ffmpeg(), "-hide_banner", "-nostats", "-ss",
                Double.toString(start), "-t", Double.toString(length), "-i", file.toString(), "-vn", "-af",
                "volumedetect", "-f", "null", "-");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Matcher mean = Pattern.compile("mean_volume: (-?[0-9.]+) dB").matcher(out);
        assertThat(mean.find()).as(out).isTrue();
        return Double.parseDouble(mean.group(1));
    }
}
