package io.pmedia.media.render.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.Media;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.render.speech.Captions;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.media.template.Templates;

/**
 * Burned-in captions as a viewer sees them: the caption region of rendered frames compared with the same video
 * rendered with one cue alone. A cue that wraps shows every line inside the caption box; two cues whose times
 * overlap (speech of the next segment starting during a transition) are shown one at a time, as the WebVTT says.
 */
class BurnedInCaptionsTest {

    static final int WIDTH = 640;
    static final int HEIGHT = 360;
    static final String PLAIN = """
            {"use-case-id": "captioned", "name": "Captioned",
             "canvas": {"width": 640, "height": 360, "fps": 25, "background": "#808080"},
             "captions": {"burn-in": true},
             "segments": [{"id": "one", "duration": 4}]}""";
    /** Wider than the caption line at its size: it wraps to two lines. */
    static final Cue LONG = new Cue(0.2, 2.9,
            "Hello Asha Menon. We made this video for you, with an offer picked just for you.");
    /** Starts while the long cue is still timed to show. */
    static final Cue NEXT = new Cue(2.7, 4.0, "Your offer: 20% off your next pair of shoes");

    static RenderEngine engine;

    @BeforeAll
    static void engine() {
        engine = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY);
    }

    static Path render(List<Cue> cues, Path work) throws IOException {
        Files.createDirectories(work);
        ResolvedVideo video = TemplateResolver.resolve(Templates.parse(PLAIN),
                RenderInputs.fromCurrentForm(Templates.data("{}")));
        return engine.render(video, Map.of(), List.of(), cues, work, Duration.ofSeconds(60)).video();
    }

    /** The lower half of the frame at {@code seconds}, where captions are drawn. */
    static byte[] captionRegion(Path video, double seconds) {
        byte[] frame = Media.greyFrame(video, seconds, WIDTH, HEIGHT);
        byte[] region = new byte[frame.length / 2];
        System.arraycopy(frame, frame.length - region.length, region, 0, region.length);
        return region;
    }

    static double meanDifference(byte[] a, byte[] b) {
        assertThat(a).hasSameSizeAs(b);
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs((a[i] & 0xff) - (b[i] & 0xff));
        }
        return (double) sum / a.length;
    }

    /** Rows of the region darkened by the caption box (grey 128 under black at 60 % is about 51). */
    static List<Integer> boxRows(byte[] region) {
        List<Integer> rows = new java.util.ArrayList<>();
        for (int y = 0; y < region.length / WIDTH; y++) {
            int dark = 0;
            for (int x = 0; x < WIDTH; x++) {
                if ((region[y * WIDTH + x] & 0xff) < 90) {
                    dark++;
                }
            }
            if (dark > WIDTH / 5) {
                rows.add(y);
            }
        }
        return rows;
    }

    @Test
    void aCueThatWrapsShowsEveryLineInsideItsBox(@TempDir Path work) throws IOException {
        byte[] region = captionRegion(render(List.of(LONG), work), 1.5);
        int size = Math.max(12, HEIGHT / 18);

        List<Integer> box = boxRows(region);
        assertThat(box).as("one box, two lines high").hasSizeGreaterThan(2 * size);
        assertThat(box.get(box.size() - 1) - box.get(0) + 1).as("the box is one piece").isEqualTo(box.size());
        for (int y = 0; y < region.length / WIDTH; y++) {
            for (int x = 0; x < WIDTH; x++) {
                if ((region[y * WIDTH + x] & 0xff) > 200) {
                    assertThat(y).as("caption text at row %d is inside the box", y).isBetween(box.get(0),
                            box.get(box.size() - 1));
                }
            }
        }
    }

    @Test
    void overlappingCuesAreShownOneAtATimeAsTheWebVttSays(@TempDir Path work) throws IOException {
        Path both = render(List.of(LONG, NEXT), work.resolve("both"));
        Path longAlone = render(List.of(LONG), work.resolve("long"));
        Path nextAlone = render(List.of(NEXT), work.resolve("next"));

        assertThat(meanDifference(captionRegion(both, 1.5), captionRegion(longAlone, 1.5)))
                .as("before the next cue, the first cue as drawn alone").isLessThan(1.0);
        assertThat(meanDifference(captionRegion(both, 2.8), captionRegion(nextAlone, 2.8)))
                .as("once the next cue starts, only the next cue").isLessThan(1.0);
        assertThat(meanDifference(captionRegion(both, 2.8), captionRegion(longAlone, 2.8)))
                .as("the comparison tells the cues apart").isGreaterThan(3.0);

        List<Cue> timed = Captions.oneAtATime(List.of(NEXT, LONG));
        assertThat(timed).containsExactly(new Cue(0.2, 2.7, LONG.text()), NEXT);
        assertThat(Captions.webVtt(timed)).contains("00:00:00.200 --> 00:00:02.700\n" + LONG.text());
    }

    @Test
    void captionsInEveryScriptAreShapedByTheGraphicsEngineNotDrawtext(@TempDir Path work) throws IOException {
        ResolvedVideo video = TemplateResolver.resolve(Templates.parse(PLAIN),
                RenderInputs.fromCurrentForm(Templates.data("{}")));
        List<Cue> cues = List.of(new Cue(0.2, 1.0, "王伟, こんにちは, 안녕하세요"), new Cue(1.0, 2.0, "श्रुति और สมชาย"),
                new Cue(2.5, 3.5, "Hello محمد and שלום, José 🎉"));
        FfmpegCommand command = new FilterGraphCompiler("/usr/bin/ffmpeg", new Fonts(Fonts.DEFAULT_DIRECTORY))
                .compile(video, Map.of(), List.of(), cues, false, work);
        String graph = String.join(" ", command.arguments());
        assertThat(graph).doesNotContain("drawtext").contains("overlay=x=0:y=");
        for (Cue cue : cues) {
            assertThat(graph).doesNotContain(cue.text());
        }
        List<io.pmedia.graphics.TextLayer> drawn = command.graphics().scene().layers().stream()
                .map(io.pmedia.graphics.TextLayer.class::cast).toList();
        assertThat(drawn).extracting(io.pmedia.graphics.TextLayer::text)
                .containsExactlyElementsOf(cues.stream().map(Cue::text).toList());
        io.pmedia.graphics.text.FontChain chain = io.pmedia.graphics.text.FontChain.of(command.graphics().fonts());
        for (io.pmedia.graphics.TextLayer layer : drawn) {
            assertThat(io.pmedia.graphics.text.TextBlock.lay(layer.text(), layer.style(), chain, layer.maxWidth(),
                    org.jetbrains.skia.paragraph.Alignment.CENTER).unresolvedGlyphs())
                    .as("glyphs drawn as boxes in %s", layer.text()).isZero();
        }

        // and in the video: a gap between cues shows no box, a cue shows one
        Path rendered = engine
                .render(video, Map.of(), List.of(), cues, Files.createDirectories(work.resolve("video")),
                        Duration.ofSeconds(60))
                .video();
        assertThat(boxRows(captionRegion(rendered, 2.2))).as("between cues").isEmpty();
        assertThat(boxRows(captionRegion(rendered, 1.5))).as("the second cue").isNotEmpty();
        assertThat(boxRows(captionRegion(rendered, 3.8))).as("after the last cue").isEmpty();
    }

    @Test
    void aHundredCuesRenderEachAtItsTime(@TempDir Path work) throws IOException {
        // one cue a frame for 4 s: 102 states (the empty ones before and after), past FFmpeg's expression nesting
        // limit of 100 for a chain of ifs
        List<Cue> cues = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            cues.add(new Cue(i * 0.04, (i + 1) * 0.04, i % 2 == 0 ? "Even" : "An odd and much longer caption line"));
        }

        Path video = render(cues, work);

        // the box is narrow on even frames, wide on odd ones: each cue at its own frame
        int even = boxWidth(captionRegion(video, 2.0));
        int odd = boxWidth(captionRegion(video, 2.04));
        assertThat(even).isPositive();
        assertThat(odd).isGreaterThan(even + 50);
        assertThat(boxWidth(captionRegion(video, 3.2))).isEqualTo(even);
    }

    /** The widest run of darkened pixels in a row of the region (the caption box), 0 without one. */
    static int boxWidth(byte[] region) {
        int widest = 0;
        for (int y = 0; y < region.length / WIDTH; y++) {
            int dark = 0;
            for (int x = 0; x < WIDTH; x++) {
                dark += (region[y * WIDTH + x] & 0xff) < 90 ? 1 : 0;
            }
            widest = Math.max(widest, dark);
        }
        return widest;
    }
}
