package io.pmedia.media.render.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.Media;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.TemplateValidator;
import io.pmedia.media.template.Templates;

/**
 * A template with a keyframed shape and an animated text in every script rendered end to end: the graphics engine's
 * frames come through FFmpeg's standard input into the video, where the shape is when its keyframes say.
 */
class EngineGraphicsRenderTest {

    static final String MOTION = """
            {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 320, "height": 180, "fps": 25,
              "background": "#000000"},
             "fields": [{"name": "name", "required": true}],
             "segments": [{"id": "a", "duration": 2, "layers": [
               {"type": "shape", "shape": "rect", "x": 0, "y": 0, "width": 40, "height": 40, "fill": "#ffffff",
                "keyframes": [{"time": 0, "x": 0}, {"time": 1, "x": 200}]},
               {"type": "text", "text": "{{name}}", "size": 28, "y": "bottom",
                "animate": {"in": {"type": "fade", "by": "letter", "duration": 0.3, "stagger": 0.05}}}
             ]}]}""";

    final RenderEngine engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);

    @Test
    void aKeyframedShapeAndAnimatedTextInEveryScriptReachTheVideo(@TempDir Path work) throws IOException {
        var template = Templates.parse(MOTION);
        assertThat(TemplateValidator.validate(template)).isEmpty();
        ResolvedVideo video = TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data(
                "{\"personalization_fields\": {\"name\": \"王伟 श्रुति สมชาย محمد José 🎉\"}}")));

        RenderEngine.RenderOutput output = engine.render(video, Map.of(), work, Duration.ofSeconds(60));

        // at 1.5 s the square is at x = 200 (its keyframes ended at 1 s): bright there, dark where it started
        byte[] frame = Media.greyFrame(output.video(), 1.5, 320, 180);
        assertThat(frame[20 * 320 + 220] & 0xff).isGreaterThan(200);
        assertThat(frame[20 * 320 + 20] & 0xff).isLessThan(40);
        // the name is drawn in the bottom third
        long text = 0;
        for (int y = 120; y < 180; y++) {
            for (int x = 0; x < 320; x++) {
                text += (frame[y * 320 + x] & 0xff) > 128 ? 1 : 0;
            }
        }
        assertThat(text).isGreaterThan(200);
    }

    /** A square moved by keyframes, then still; a second segment's square fading in, then still. */
    static final String STILL_STRETCHES = """
            {"use-case-id": "still", "name": "Still stretches", "canvas": {"width": 320, "height": 180, "fps": 25,
              "background": "#000000"},
             "segments": [
               {"id": "a", "duration": 2, "layers": [
                 {"type": "shape", "shape": "rect", "x": 0, "y": 0, "width": 40, "height": 40, "fill": "#ffffff",
                  "keyframes": [{"time": 0.4, "x": 0}, {"time": 0.8, "x": 200}]}]},
               {"id": "b", "duration": 1.2, "layers": [
                 {"type": "shape", "shape": "rect", "x": 100, "y": 100, "width": 40, "height": 40,
                  "fill": "#ffffff", "start": 0.2, "fade-in": 0.4}]}
             ]}""";

    @Test
    void aStillStretchCrossesThePipeOnceAndEveryFrameShowsWhatItsTimeDraws(@TempDir Path work) throws IOException {
        var template = Templates.parse(STILL_STRETCHES);
        assertThat(TemplateValidator.validate(template)).isEmpty();
        ResolvedVideo video = TemplateResolver.resolve(template, RenderInputs.fromCurrentForm(Templates.data("{}")));

        // 80 frames (3.2 s) in the video; on the pipe: the first and last of each segment, the square's 10 frames
        // of motion, and the 11 from where the second square shows to the end of its fade
        var command = new FilterGraphCompiler("ffmpeg", new Fonts(Fonts.DEFAULT_DIRECTORY)).compile(video, Map.of(),
                Files.createDirectories(work.resolve("graph")));
        assertThat(command.graphics().count()).isBetween(20, 28);

        RenderEngine.RenderOutput output = engine.render(video, Map.of(), work, Duration.ofSeconds(60));
        var frames = Media.greyFrames(output.video(), 320, 180);
        assertThat(frames).hasSize(80);
        for (int i = 0; i < 50; i++) {
            // segment a: the square's left edge at 0 until 0.4 s, then 500 px a second to x = 200 at 0.8 s
            double t = i / 25.0;
            double expected = 200 * Math.max(0, Math.min(1, (t - 0.4) / 0.4));
            int[] row = FrameRows.row(frames.get(i), 20);
            assertThat(FrameRows.leftEdge(row, 255)).as("frame %d (%.2f s)", i, t).isCloseTo(expected,
                    org.assertj.core.api.Assertions.within(2.5));
        }
        for (int i = 50; i < 80; i++) {
            // segment b: nothing until 0.2 s, then the square fades in until 0.6 s, then holds
            double t = (i - 50) / 25.0;
            double opacity = Math.max(0, Math.min(1, (t - 0.2) / 0.4));
            int centre = frames.get(i)[120 * 320 + 120] & 0xff;
            assertThat((double) centre).as("frame %d (%.2f s into b)", i, t).isCloseTo(255 * opacity,
                    org.assertj.core.api.Assertions.within(12.0));
        }
    }

    @Test
    void theNameCardSampleDrawsItsCardAndANameInThai(@TempDir Path work) throws IOException {
        ResolvedVideo video = Templates.resolve(Templates.sample("name-card"),
                "{\"personalization_fields\": {\"name\": \"สมชาย\"}}");

        RenderEngine.RenderOutput output = engine.render(video, Map.of(), work, Duration.ofSeconds(120));

        assertThat(output.durationSeconds()).isCloseTo(6.0, org.assertj.core.api.Assertions.within(0.1));
        // at 3 s the card has slid in: white between its edges (x 190-1090, y 200-520), the backdrop dark outside,
        // and the name dark on the card where it is written (x 250 on, y 290 to 390)
        byte[] frame = Media.greyFrame(output.video(), 3, 1280, 720);
        assertThat(frame[480 * 1280 + 640] & 0xff).isGreaterThan(200);
        assertThat(frame[650 * 1280 + 100] & 0xff).isLessThan(90);
        long ink = 0;
        for (int y = 290; y < 390; y++) {
            for (int x = 250; x < 700; x++) {
                ink += (frame[y * 1280 + x] & 0xff) < 100 ? 1 : 0;
            }
        }
        assertThat(ink).as("the name's dark pixels on the card").isGreaterThan(1500);
    }

    @Test
    void aGradientBackgroundRunsUnderTheLayersOfItsSegment(@TempDir Path work) throws IOException {
        ResolvedVideo video = Templates.resolve(Templates.parse("""
                {"use-case-id": "g", "name": "G", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "segments": [{"id": "a", "duration": 1, "background": {"gradient": {"type": "linear",
                   "from": [0, 0], "to": [1, 0], "colors": ["#000000", "#ffffff"]}},
                   "layers": [{"type": "shape", "shape": "rect", "x": 140, "y": 70, "width": 40, "height": 40,
                               "fill": "#ff0000"}]}]}"""), "{}");

        RenderEngine.RenderOutput output = engine.render(video, Map.of(), work, Duration.ofSeconds(60));

        // dark at the left edge, bright at the right, a ramp between; the red square (grey about 76) drawn over it
        byte[] frame = Media.greyFrame(output.video(), 0.5, 320, 180);
        assertThat(frame[20 * 320 + 5] & 0xff).isLessThan(30);
        assertThat(frame[20 * 320 + 314] & 0xff).isGreaterThan(225);
        assertThat(frame[20 * 320 + 160] & 0xff).isBetween(100, 160);
        assertThat(frame[90 * 320 + 160] & 0xff).isBetween(60, 95);
    }

    @Test
    void aTextFilledWithAGradientOverABoxFilledWithAnother(@TempDir Path work) throws IOException {
        ResolvedVideo video = Templates.resolve(Templates.parse("""
                {"use-case-id": "t", "name": "T", "canvas": {"width": 320, "height": 180, "fps": 25,
                  "background": "#808080"},
                 "segments": [{"id": "a", "duration": 1, "layers": [
                   {"type": "text", "text": "\u2588\u2588\u2588\u2588\u2588\u2588", "size": 40, "y": 20,
                    "fill": {"type": "linear", "from": [0, 0], "to": [1, 0], "colors": ["#ffffff", "#000000"]}},
                   {"type": "text", "text": "\u2588", "size": 30, "y": 120, "color": "#808080",
                    "box-fill": {"type": "linear", "from": [0, 0], "to": [1, 0], "colors": ["#000000", "#ffffff"]}}
                 ]}]}"""), "{}");

        RenderEngine.RenderOutput output = engine.render(video, Map.of(), work, Duration.ofSeconds(60));

        byte[] frame = Media.greyFrame(output.video(), 0.5, 320, 180);
        // the letters run from white to black over the text's box; the grey letter on a box from black to white
        int row = 20 + 20;
        int[] ink = java.util.stream.IntStream.range(0, 320)
                .filter(x -> Math.abs((frame[row * 320 + x] & 0xff) - 128) > 20)
                .toArray();
        assertThat(ink.length).as("the letters' row").isGreaterThan(60);
        assertThat(frame[row * 320 + ink[2]] & 0xff).as("left: white").isGreaterThan(200);
        assertThat(frame[row * 320 + ink[ink.length - 3]] & 0xff).as("right: black").isLessThan(50);
        int boxRow = 120 + 15;
        int[] box = java.util.stream.IntStream.range(0, 320)
                .filter(x -> Math.abs((frame[boxRow * 320 + x] & 0xff) - 128) > 20).toArray();
        assertThat(box.length).as("the box's row").isGreaterThan(10);
        assertThat(frame[boxRow * 320 + box[0]] & 0xff).as("box left: dark").isLessThan(90);
        assertThat(frame[boxRow * 320 + box[box.length - 1]] & 0xff).as("box right: light").isGreaterThan(170);
    }
}
