package io.pmedia.media.render.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.graphics.VideoLayer;
import io.pmedia.media.render.Media;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateValidator;
import io.pmedia.media.template.Templates;

/**
 * A video with keyframes rendered end to end: drawn by the graphics engine from frames an FFmpeg of its own decodes
 * for it (the render's FFmpeg never opens its file), where and as opaque as its keyframes say and playing its frames
 * meanwhile, measured in the decoded frames of the video within one frame; a video that does not decode fails the
 * render, named by its layer.
 */
class VideoKeyframesRenderTest {

    /**
     * The moving picture's template (PictureKeyframesRenderTest) with a 40x40 video moving instead of the picture, in
     * a segment of 2.4 s: in the box at (0, 70) on black, from x +0 and opacity 0 at 0 s to x +200 and opacity 1 at 1 s
     * (8 px and 0.04 a frame at 25 fps), linear, then held. The video's top half is white (where and how opaque), its
     * bottom half luma 30 + 3 n in its frame n (which frame plays; grey (14 + 3 n) * 255 / 219 read back at full
     * range): 2 s of it, so it freezes on frame 49 for the last 0.4 s. Under it a text and over it a still picture
     * overlaid by FFmpeg keep their places in the layer order.
     */
    static final String TEMPLATE = PictureKeyframesRenderTest.TEMPLATE
            .replace("\"duration\": 2,", "\"duration\": 2.4,")
            .replace("\"assets\": {\"images\": [{\"name\": \"photo\"}]}",
                    "\"assets\": {\"images\": [{\"name\": \"photo\"}], \"videos\": [{\"name\": \"clip\"}]}")
            .replace("{\"type\": \"image\", \"asset\": 0, \"x\": 0, \"y\": 70,",
                    "{\"type\": \"video\", \"asset\": 0, \"x\": 0, \"y\": 70,");

    static final String CLIP = "https://cdn.example.com/counter.mp4";
    static final String PHOTO = "https://cdn.example.com/white.png";

    static Path clip;
    static Path white;

    final RenderEngine engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);

    @BeforeAll
    static void media(@TempDir Path dir) {
        clip = dir.resolve("counter.mp4");
        Media.ffmpeg("-f", "lavfi", "-i", "nullsrc=s=40x40:r=25:d=2,geq=lum='if(lt(Y,20),255,30+3*N)':cb=128:cr=128",
                "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", clip.toString());
        white = dir.resolve("white.png");
        Media.ffmpeg("-f", "lavfi", "-i", "color=c=white:s=80x80", "-frames:v", "1", white.toString());
    }

    static ResolvedVideo video() {
        assertThat(TEMPLATE).contains("\"duration\": 2.4,", "\"videos\"", "{\"type\": \"video\"");
        var template = Templates.parse(TEMPLATE);
        assertThat(TemplateValidator.validate(template)).isEmpty();
        return Templates.resolve(template, """
                {"global_assets": {"images": ["%s"], "videos": ["%s"]}}""".formatted(PHOTO, CLIP));
    }

    @Test
    void aKeyframedVideoIsWhereAndAsOpaqueAsItsKeyframesSayAndPlaysMeanwhile(@TempDir Path work) throws IOException {
        RenderEngine.RenderOutput output = engine.render(video(), Map.of(CLIP, clip, PHOTO, white), work,
                Duration.ofSeconds(120));
        keep(output.video());

        for (double time : new double[]{0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.6, 2.2}) {
            assertVideoAt(Media.greyFrame(output.video(), time, 320, 180), time);
        }
        FrameRows.assertPictureOverAndTextUnder(Media.greyFrame(output.video(), 1.6, 320, 180));
    }

    @Test
    void aWindowOfTheChunkCacheShowsTheVideoAsTheFullRenderDoes(@TempDir Path work) {
        // frames 30 to 55 (1.2 s to 2.2 s) alone, as the chunk cache renders a chunk: the video's decoder starts at
        // its start and the frames before the window are dropped
        Path piece = engine.renderRange(video(), 30, 55, List.of(0), 0, Map.of(CLIP, clip, PHOTO, white), work,
                Duration.ofSeconds(120)).get(0);

        for (int frame : new int[]{0, 10, 20}) {
            double time = (30 + frame) / 25.0;
            assertVideoAt(Media.greyFrame(piece, frame / 25.0, 320, 180), time);
        }
    }

    /**
     * Where, how opaque and which of its frames the video is in {@code frame}, the render's frame at {@code time}:
     * within one frame of its keyframes and of its clock.
     */
    private static void assertVideoAt(byte[] frame, double time) {
        double progress = Math.min(1, time);
        int[] top = FrameRows.row(frame, 80);
        int brightest = Arrays.stream(top).max().orElse(0);
        assertThat(brightest / 255.0).as("opacity at %.2f s", time).isCloseTo(progress, within(0.04 + 0.03));
        double left = FrameRows.leftEdge(top, brightest);
        assertThat(left).as("left edge at %.2f s", time).isCloseTo(200 * progress, within(8.0 + 1));
        if (time >= 1) {
            // opaque: the bottom half shows the video's frame of the time, its last one once it has ended (within
            // one frame: 3.5 levels, and 2.5 for the encoding)
            int played = Math.min(49, (int) Math.round(time * 25));
            assertThat(frame[100 * 320 + (int) left + 20] & 0xff).as("the video's frame at %.2f s", time)
                    .isCloseTo((int) Math.round((14 + 3 * played) * 255 / 219.0), within(6));
        }
    }

    @Test
    void theRendersFfmpegOpensOnlyThePictureAndTheEngineDrawsTheVideo(@TempDir Path work) throws IOException {
        FfmpegCommand command = new FilterGraphCompiler("/usr/bin/ffmpeg", new Fonts(Fonts.DEFAULT_DIRECTORY))
                .compile(video(), Map.of(CLIP, clip, PHOTO, white), work);

        String args = String.join(" ", command.arguments());
        assertThat(args.split("-i file:asset-", -1)).as("one input: the still picture").hasSize(2);
        assertThat(args).contains("-i pipe:0");
        assertThat(command.graphics().scene().layers()).hasSize(2)
                .anySatisfy(layer -> assertThat(layer).isInstanceOf(VideoLayer.class));
    }

    @Test
    void aVideoThatDoesNotDecodeFailsTheRenderNamingItsLayer(@TempDir Path work) throws IOException {
        byte[] mp4 = Files.readAllBytes(clip);
        Path cut = Files.write(work.resolve("cut.mp4"), Arrays.copyOf(mp4, 48));

        assertThatThrownBy(() -> engine.render(video(), Map.of(CLIP, cut, PHOTO, white), work,
                Duration.ofSeconds(60)))
                .isInstanceOf(RenderException.class)
                .hasMessageStartingWith("the graphics engine refused video layer of segment 'a' (asset " + CLIP
                        + "): the video cannot be decoded: ");
    }

    /** The render kept in target/ for a look (a contact sheet of it: docs/decisions.md, keyframes on videos). */
    private static void keep(Path video) throws IOException {
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            Files.copy(video, target.resolve("video-keyframes.mp4"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
