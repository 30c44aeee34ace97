package io.pmedia.media.render.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.CRC32;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * A picture with keyframes rendered end to end: drawn by the graphics engine (not overlaid by FFmpeg, which never
 * opens its file), where and as opaque as its keyframes say, measured in the decoded frames of the video within one
 * frame of motion; a hostile file fails the render, named by its layer.
 */
class PictureKeyframesRenderTest {

    /**
     * A white 40x40 picture in the box at (0, 70) on black, from x +0 and opacity 0 at 0 s to x +200 and opacity 1 at
     * 1 s (8 px and 0.04 a frame at 25 fps), linear; then held. Under it a text and over it a second, still picture
     * of the same file, overlaid by FFmpeg, keep their places in the layer order.
     */
    static final String TEMPLATE = """
            {"use-case-id": "moving-picture", "name": "Moving picture",
             "canvas": {"width": 320, "height": 180, "fps": 25, "background": "#000000"},
             "assets": {"images": [{"name": "photo"}]},
             "segments": [{"id": "a", "duration": 2, "layers": [
               {"type": "text", "text": "under", "size": 20, "y": 10},
               {"type": "image", "asset": 0, "x": 0, "y": 70, "width": 40, "height": 40,
                "keyframes": [{"time": 0, "x": 0, "opacity": 0}, {"time": 1, "x": 200, "opacity": 1}]},
               {"type": "image", "asset": 0, "x": 280, "y": 140, "width": 40, "height": 40}
             ]}]}""";

    static final String PHOTO = "https://cdn.example.com/white.png";

    static Path white;

    final RenderEngine engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);

    @BeforeAll
    static void picture(@TempDir Path dir) {
        white = dir.resolve("white.png");
        Media.ffmpeg("-f", "lavfi", "-i", "color=c=white:s=80x80", "-frames:v", "1", white.toString());
    }

    static ResolvedVideo video() {
        var template = Templates.parse(TEMPLATE);
        assertThat(TemplateValidator.validate(template)).isEmpty();
        return Templates.resolve(template, """
                {"global_assets": {"images": ["%s"]}}""".formatted(PHOTO));
    }

    @Test
    void aKeyframedPictureIsWhereAndAsOpaqueAsItsKeyframesSayInTheVideo(@TempDir Path work) {
        RenderEngine.RenderOutput output = engine.render(video(), Map.of(PHOTO, white), work,
                Duration.ofSeconds(120));

        for (double time : new double[]{0.2, 0.4, 0.6, 0.8, 1.0, 1.6}) {
            byte[] frame = Media.greyFrame(output.video(), time, 320, 180);
            double progress = Math.min(1, time);
            int[] row = FrameRows.row(frame, 90);
            int brightest = Arrays.stream(row).max().orElse(0);
            assertThat(brightest / 255.0).as("opacity at %.1f s", time).isCloseTo(progress, within(0.04 + 0.03));
            assertThat(FrameRows.leftEdge(row, brightest)).as("left edge at %.1f s", time)
                    .isCloseTo(200 * progress, within(8.0 + 1));
        }
        FrameRows.assertPictureOverAndTextUnder(Media.greyFrame(output.video(), 1.6, 320, 180));
    }

    @Test
    void ffmpegOpensTheFileOnlyForThePictureItOverlays(@TempDir Path work) throws IOException {
        FfmpegCommand command = new FilterGraphCompiler("/usr/bin/ffmpeg", new Fonts(Fonts.DEFAULT_DIRECTORY))
                .compile(video(), Map.of(PHOTO, white), work);

        String args = String.join(" ", command.arguments());
        assertThat(args.split("-i file:asset-", -1)).as("one input for the still picture").hasSize(2);
        assertThat(args).doesNotContain("[0:v]split").contains("-i pipe:0");
        assertThat(command.graphics().scene().layers()).hasSize(2);
    }

    @Test
    void aPictureOfTooManyPixelsFailsTheRenderBeforeFfmpegStarts(@TempDir Path work) throws IOException {
        // the white PNG with its header saying 10000x5000 (50,000,000 pixels), its checksum made good
        byte[] png = Files.readAllBytes(white);
        ByteBuffer.wrap(png).putInt(16, 10_000).putInt(20, 5_000);
        CRC32 crc = new CRC32();
        crc.update(png, 12, 17);
        ByteBuffer.wrap(png).putInt(29, (int) crc.getValue());
        Path bomb = Files.write(work.resolve("bomb.png"), png);

        assertThatThrownBy(() -> engine.render(video(), Map.of(PHOTO, bomb), work, Duration.ofSeconds(60)))
                .isInstanceOf(RenderException.class)
                .hasMessage("image layer of segment 'a' (asset " + PHOTO + "): a 10000x5000 picture: at most"
                        + " 40,000,000 pixels");
    }

    @Test
    void aPictureThatDoesNotDecodeFailsTheRenderNamingItsLayer(@TempDir Path work) throws IOException {
        Path noise = work.resolve("noise.png");
        Media.ffmpeg("-f", "lavfi", "-i", "nullsrc=s=200x200,geq=random(1)*255:128:128", "-frames:v", "1",
                noise.toString());
        byte[] png = Files.readAllBytes(noise);
        Path cut = Files.write(work.resolve("cut.png"), Arrays.copyOf(png, png.length / 2));

        assertThatThrownBy(() -> engine.render(video(), Map.of(PHOTO, cut), work, Duration.ofSeconds(60)))
                .isInstanceOf(RenderException.class)
                .hasMessageStartingWith("the graphics engine refused image layer of segment 'a' (asset " + PHOTO
                        + "): the PNG picture cannot be decoded");
    }
}
