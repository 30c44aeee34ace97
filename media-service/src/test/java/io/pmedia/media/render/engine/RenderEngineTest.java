package io.pmedia.media.render.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.pmedia.events.RenderInput;
import io.pmedia.media.render.Likeness;
import io.pmedia.media.render.Media;
import io.pmedia.media.render.Processes;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.ffmpeg.Mp4Summary;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;

/** Real renders with the machine's FFmpeg, checked with ffprobe. */
class RenderEngineTest {

    static final String SMALL = """
            {"use-case-id": "small", "name": "Small",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#102030"},
             "fields": [{"name": "name", "required": true}],
             "assets": {"images": [{"required": true}], "videos": [{"required": true}], "icons": [{}]},
             "audio": %s,
             "segments": [
               {"id": "one", "duration": 1.5, "fade-out": 0.2, "layers": [
                 {"id": "photo", "type": "image", "asset": 0, "x": 10, "y": 10, "width": 100, "height": 100,
                  "fit": "cover", "fade-in": 0.3},
                 {"id": "hi", "type": "text", "text": "Hi {{name}}", "size": 20, "x": "center", "y": "center",
                  "fade": 0.3, "shadow-color": "#000000"}]},
               {"id": "two", "duration": 1.5, "background": {"video": 0}, "layers": [
                 {"id": "again", "type": "text", "text": "{{name}}", "size": 18, "box-color": "#00000080",
                  "x": "left", "y": "bottom"},
                 {"id": "logo", "type": "icon", "asset": 0, "x": "center", "y": "center", "width": 40, "height": 40},
                 {"id": "small-photo", "type": "image", "asset": 0, "x": 260, "y": 10, "width": 40, "height": 40,
                  "start": 0.5}]}
             ]}""";

    static final String IMAGE = "https://a.example/i.png";
    static final String CLIP = "https://a.example/c.mp4";
    static final String ICON = "https://a.example/logo.png";

    static Path image;
    static Path clip;
    static Path sound;
    static RenderEngine engine;

    @BeforeAll
    static void assets(@TempDir Path dir) {
        engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);
        image = Media.image(dir, "image.png", 200, 150);
        clip = Media.clip(dir, "clip.mp4", 320, 180, 1);
        sound = Media.sound(dir, "tone.wav", 1);
    }

    static ResolvedVideo small(String name, String audio) {
        TemplateDefinition template = Templates.parse(SMALL.formatted(audio));
        RenderInput input = RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": %s},
                 "global_assets": {"images": ["%s"], "videos": ["%s"], "icons": ["%s"]}}"""
                .formatted(Templates.JSON.valueToTree(name), IMAGE, CLIP, ICON)));
        return TemplateResolver.resolve(template, input);
    }

    static Map<String, Path> files() {
        return Map.of(IMAGE, image, CLIP, clip, ICON, image, "https://a.example/music.wav", sound);
    }

    @Test
    void rendersTheTemplatesDurationAndSizeWithOneVideoAndOneAudioStream(@TempDir Path work) throws IOException {
        RenderEngine.RenderOutput output = engine.render(small("Ada", "null"), files(), work, Duration.ofSeconds(60));

        FfmpegRunner.Probe video = engine.runner().probe(output.video());
        assertThat(video.durationSeconds()).isCloseTo(3.0, within(0.1));
        assertThat(video.width()).isEqualTo(320);
        assertThat(video.height()).isEqualTo(180);
        assertThat(video.streams()).extracting(FfmpegRunner.Stream::kind, FfmpegRunner.Stream::codec)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("video", "h264"),
                        org.assertj.core.groups.Tuple.tuple("audio", "aac"));
        assertThat(output).isEqualTo(new RenderEngine.RenderOutput(work.resolve("video.mp4"),
                work.resolve("thumbnail.jpg"), video.durationSeconds(), 320, 180, List.of(work.resolve("video.mp4"))));

        FfmpegRunner.Probe summary = Mp4Summary.read(output.video());
        assertThat(summary.durationSeconds()).isCloseTo(video.durationSeconds(), within(0.01));
        assertThat(summary.streamKinds()).containsExactlyElementsOf(video.streamKinds());
        assertThat(List.of(summary.width(), summary.height())).containsExactly(320, 180);

        FfmpegRunner.Probe thumbnail = engine.runner().probe(output.thumbnail());
        assertThat(thumbnail.streams()).extracting(FfmpegRunner.Stream::codec).containsExactly("mjpeg");
        assertThat(thumbnail.width()).isEqualTo(320);
        assertThat(thumbnail.height()).isEqualTo(180);
    }

    @Test
    void aStreamedRenderHasTheSameThumbnailCutFromItsMp4(@TempDir Path work) throws IOException {
        Path whole = Files.createDirectories(work.resolve("whole"));
        Path streamed = Files.createDirectories(work.resolve("streamed"));
        RenderEngine.RenderOutput one = engine.render(small("Ada", "null"), files(), List.of(), List.of(), false, whole,
                Duration.ofSeconds(60));
        RenderEngine.RenderOutput other = engine.render(small("Ada", "null"), files(), List.of(), List.of(), true,
                streamed, Duration.ofSeconds(60));

        assertThat(other.thumbnail()).isEqualTo(streamed.resolve("thumbnail.jpg"));
        assertThat(Mp4Summary.isJpeg(other.thumbnail())).isTrue();
        assertThat(Files.readString(streamed.resolve("stream.m3u8"))).contains("stream-00000.ts");
        // the same frame (the middle of the first segment), once from the picture and once decoded from the MP4
        assertThat(Likeness.ssim(one.thumbnail(), other.thumbnail(), work)).singleElement()
                .satisfies(ssim -> assertThat(ssim).isGreaterThan(0.95));
    }

    @Test
    void aMainOutputScaledDownRendersAtItsOwnSizeStreamedOrNot(@TempDir Path work) throws IOException {
        TemplateDefinition template = Templates.parse(SMALL.formatted("null").replace("\"segments\"",
                "\"outputs\": [{\"name\": \"main\", \"format\": \"mp4\", \"height\": 90}], \"segments\""));
        ResolvedVideo video = TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": "Ada"},
                 "global_assets": {"images": ["%s"], "videos": ["%s"], "icons": ["%s"]}}"""
                .formatted(IMAGE, CLIP, ICON))));
        assertThat(RenderEngine.mainSize(video)).containsExactly(160, 90);

        for (boolean stream : List.of(false, true)) {
            Path dir = Files.createDirectories(work.resolve("stream-" + stream));
            RenderEngine.RenderOutput output = engine.render(video, files(), List.of(), List.of(), stream, dir,
                    Duration.ofSeconds(60));

            assertThat(List.of(output.width(), output.height())).as("streamed: %s", stream).containsExactly(160, 90);
            FfmpegRunner.Probe probe = engine.runner().probe(output.video());
            assertThat(List.of(probe.width(), probe.height())).containsExactly(160, 90);
            assertThat(Mp4Summary.isJpeg(output.thumbnail())).isTrue();
        }
    }

    @Test
    void aHostileNameInAHostileDirectoryWithHostileFontPathsRendersLiterally(@TempDir Path parent)
            throws IOException {
        Path work = Files.createDirectories(parent.resolve("we:ird,[dir];'x% $(id)"));
        Path fontDir = Files.createDirectories(parent.resolve("fo:nt's [dir];x,y\\z"));
        try (var fonts = Files.list(Fonts.DEFAULT_DIRECTORY)) {
            for (Path font : fonts.toList()) {
                Files.createSymbolicLink(fontDir.resolve(font.getFileName()), font);
            }
        }
        RenderEngine hostile = new RenderEngine(engine.runner(), fontDir);
        String name = "O'Brien: 100% [x];drawbox=c=red %{pts} \\ $(reboot)";

        RenderEngine.RenderOutput output = hostile.render(small(name, "null"), files(), work, Duration.ofSeconds(60));

        assertThat(output.durationSeconds()).isCloseTo(3.0, within(0.1));
        FfmpegCommand command = hostile.compile(small(name, "null"), files(), work);
        assertThat(command.arguments()).noneMatch(argument -> argument.contains("O'Brien"));
        assertThat(((io.pmedia.graphics.TextLayer) command.graphics().scene().layers().get(0)).text())
                .isEqualTo("Hi " + name);
        // the text was drawn: the middle of the first segment is no longer only its dark background
        byte[] frame = Media.greyFrame(output.video(), 0.75, 320, 180);
        assertThat(Media.brighterThan(frame, 200)).isGreaterThan(50);
    }

    @Test
    void aToneOrATrackIsTheSoundTrack(@TempDir Path work) throws IOException {
        for (String audio : List.of("{\"type\": \"tone\", \"frequency\": 440, \"volume\": 0.2}",
                "{\"type\": \"track\", \"url\": \"https://a.example/music.wav\", \"fade-out\": 0.5}")) {
            Path dir = Files.createDirectories(work.resolve(audio.contains("tone") ? "tone" : "track"));
            RenderEngine.RenderOutput output = engine.render(small("Ada", audio), files(), dir,
                    Duration.ofSeconds(60));
            assertThat(engine.runner().probe(output.video()).count("audio")).isEqualTo(1);
            assertThat(output.durationSeconds()).isCloseTo(3.0, within(0.1));
        }
    }

    @Test
    void aFileThatIsNotAnImageCannotPullAnythingInAndTheMessageNamesTheAssetNotTheFiles(@TempDir Path work)
            throws IOException {
        Path playlist = Files.writeString(work.resolve("fetched.bin"),
                "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n");
        Map<String, Path> files = Map.of(IMAGE, playlist, CLIP, clip, ICON, image);

        assertThatThrownBy(() -> engine.render(small("Ada", "null"), files, work, Duration.ofSeconds(60)))
                .isInstanceOf(RenderException.class)
                .hasMessageStartingWith("ffmpeg failed: ")
                .hasMessageContaining("asset " + IMAGE + ": ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(work.toString(), "/tmp", "asset-"));
    }

    @Test
    void aRenderOverItsTimeLimitIsKilled(@TempDir Path work) {
        ResolvedVideo small = small("Ada", "null");
        ResolvedVideo.Segment base = small.segments().get(1);
        ResolvedVideo.Segment long_ = new ResolvedVideo.Segment("long", 120 * 60, 120, base.background(), 0, 0,
                base.layers());
        ResolvedVideo slow = new ResolvedVideo(new TemplateDefinition.Canvas(1920, 1080, 60, "#000000"),
                List.of(long_), small.audio());
        long started = System.nanoTime();

        assertThatThrownBy(() -> engine.render(slow, files(), work, Duration.ofMillis(500)))
                .isInstanceOf(RenderException.class)
                .hasMessage("render exceeded its time limit of 0.5 s");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(Processes.ffmpegRunningIn(work)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            vertical-short | {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["https://a.example/c.mp4"], "icons": ["https://a.example/logo.png"]}, "frame_segments": [{"segment_id": "clip", "duration": 0.6}, {"segment_id": "cta", "duration": 0.4}]} | 1080 | 1920
            classic-card   | {"personalization_fields": {"greeting": "Dear Ada", "caption": "2019"}, "global_assets": {"images": ["https://a.example/i.png"]}, "frame_segments": [{"segment_id": "card", "duration": 0.6}, {"segment_id": "closing", "duration": 0.4}]} | 1280 | 720
            """)
    void theOtherSampleTemplatesRender(String sample, String data, int width, int height, @TempDir Path work) {
        RenderEngine.RenderOutput output = engine.render(Templates.resolve(Templates.sample(sample), data), files(),
                work, Duration.ofSeconds(60));

        assertThat(output.durationSeconds()).isCloseTo(1.0, within(0.1));
        assertThat(List.of(output.width(), output.height())).containsExactly(width, height);
    }

    @Test
    void theDemoTemplateRendersItsTenSecondsAt720p(@TempDir Path work) {
        ResolvedVideo video = Templates.resolve(Templates.sample("greeting"), """
                {"personalization_fields": {"name": "Ada Lovelace-Byron", "offer": "20% off your next order"},
                 "global_assets": {"images": ["IMAGE"]}}""".replace("IMAGE", IMAGE));

        RenderEngine.RenderOutput output = engine.render(video, files(), work, Duration.ofSeconds(60));

        assertThat(output.durationSeconds()).isCloseTo(10.0, within(0.1));
        assertThat(output.width()).isEqualTo(1280);
        assertThat(output.height()).isEqualTo(720);
    }
}
