package io.pmedia.media.render;

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

import io.pmedia.media.template.RenderInput;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;

/** Real renders with the OS's FFmpeg, checked with ffprobe. */
class RenderEngineTest {

    static final String SMALL = """
            {"use-case-id": "small", "name": "small",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#102030"},
             "fields": [{"name": "name", "required": true}],
             "assets": {"images": [{"required": true}], "videos": [{"required": true}]},
             "segments": [
               {"id": "one", "duration": 1.5, "layers": [
                 {"id": "photo", "type": "image", "asset": 0, "x": 10, "y": 10, "width": 100, "height": 100, "fit": "cover"},
                 {"id": "hi", "type": "text", "text": "Hi {{name}}", "size": 20, "x": "center", "y": "center", "fade": 0.3}]},
               {"id": "two", "duration": 1.5, "background": {"video": 0}, "layers": [
                 {"id": "again", "type": "text", "text": "{{name}}", "size": 18, "box-color": "#00000080", "x": "left", "y": "bottom"},
                 {"id": "small-photo", "type": "image", "asset": 0, "x": "center", "y": "center", "width": 40, "height": 40}]}
             ]}""";

    static Path image;
    static Path clip;
    static RenderEngine engine;

    @BeforeAll
    static void assets(@TempDir Path dir) throws Exception {
        engine = new RenderEngine(FfmpegRunner.locate(null), Path.of(Fonts.DIRECTORY));
        image = dir.resolve("image.png");
        clip = dir.resolve("clip.mp4");
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=200x150:duration=1", "-frames:v", "1", image.toString());
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:duration=2", "-pix_fmt", "yuv420p",
                clip.toString());
    }

    private static ResolvedVideo small(String name) {
        TemplateDefinition template = Templates.parse(SMALL);
        RenderInput input = RenderInput.fromCurrentForm(Templates.data("""
                {"personalization_fields": {"name": %s},
                 "global_assets": {"images": ["https://a.example/i.png"], "videos": ["https://a.example/c.mp4"]}}"""
                .formatted(Templates.JSON.valueToTree(name).toString())));
        return TemplateResolver.resolve(template, input);
    }

    private static Map<String, Path> files() {
        return Map.of("https://a.example/i.png", image, "https://a.example/c.mp4", clip);
    }

    @Test
    void rendersTheTemplatesDurationSizeAndStreams(@TempDir Path work) {
        RenderEngine.RenderOutput output = engine.render(small("Ada"), files(), work, Duration.ofSeconds(60));

        FfmpegRunner.Probe video = engine.runner().probe(output.video());
        assertThat(video.durationSeconds()).isCloseTo(3.0, within(0.1));
        assertThat(video.width()).isEqualTo(320);
        assertThat(video.height()).isEqualTo(180);
        assertThat(video.count("video")).isEqualTo(1);
        assertThat(video.count("audio")).isEqualTo(1);

        FfmpegRunner.Probe thumbnail = engine.runner().probe(output.thumbnail());
        assertThat(thumbnail.width()).isEqualTo(320);
        assertThat(thumbnail.height()).isEqualTo(180);
        assertThat(output.thumbnail().getFileName().toString()).endsWith(".jpg");
    }

    @Test
    void hostileTextAndAWorkDirectoryWithGraphSyntaxRenderLiterally(@TempDir Path parent) throws IOException {
        Path work = Files.createDirectories(parent.resolve("we:ird,[dir];'x%"));
        RenderEngine.RenderOutput output = engine.render(small("O'Brien: 100% [x];drawbox=c=red %{pts}"), files(),
                work, Duration.ofSeconds(60));
        assertThat(output.durationSeconds()).isCloseTo(3.0, within(0.1));
        FfmpegCommand command = engine.compile(small("O'Brien"), files(), work);
        assertThat(String.join(" ", command.arguments())).doesNotContain("O'Brien");
        assertThat(Files.readString(work.resolve("text-0-1.txt"))).isEqualTo("Hi O'Brien");
    }

    @Test
    void aFileThatIsNotAnImageCannotPullAnythingIn(@TempDir Path work) throws IOException {
        Path playlist = work.resolve("asset.bin");
        Files.writeString(playlist,
                "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n");
        Map<String, Path> files = Map.of("https://a.example/i.png", playlist, "https://a.example/c.mp4", clip);
        assertThatThrownBy(() -> engine.render(small("Ada"), files, work, Duration.ofSeconds(60)))
                .isInstanceOf(RenderException.class)
                .hasMessageStartingWith("ffmpeg failed")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(work.toString()));
    }

    @Test
    void aRenderOverItsTimeLimitIsKilled(@TempDir Path work) {
        long started = System.nanoTime();
        ResolvedVideo video = small("Ada");
        List<ResolvedVideo.Segment> many = java.util.Collections.nCopies(20, video.segments().get(1));
        ResolvedVideo longer = new ResolvedVideo(video.canvas(), many, video.audio());
        assertThatThrownBy(() -> engine.render(longer, files(), work, Duration.ofMillis(300)))
                .isInstanceOf(RenderException.class)
                .hasMessage("render exceeded its time limit of 0 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void theDemoTemplateRendersItsTenSecondsAt720p(@TempDir Path work) {
        ResolvedVideo video = TemplateResolver.resolve(Templates.sample("greeting"),
                RenderInput.fromCurrentForm(Templates.data("{\"personalization_fields\": {\"name\": \"Ada\"}}")));
        RenderEngine.RenderOutput output = engine.render(video, Map.of(), work, Duration.ofSeconds(60));
        assertThat(output.durationSeconds()).isCloseTo(10.0, within(0.1));
        assertThat(output.width()).isEqualTo(1280);
        assertThat(output.height()).isEqualTo(720);
    }

    static void ffmpeg(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-y"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException(out);
        }
    }
}
