package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.Keyframe;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.motion.TextAnimation;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.graphics.text.TextStyle;

/**
 * A scene whose frames carry each band's window alone ({@link Scene#windowed}): every window holds exactly the pixels
 * of its part of the band in the whole frame, stacked at its top, and the frame is no larger than the windows.
 */
class WindowedSceneTest {

    static final int WIDTH = 320;
    static final int BAND = 100;
    static final double FPS = 25;

    /** Two bands: a typed-in text in the first, a moving square and a faded text in the second. */
    static Scene scene() {
        TextAnimation typewriter = new TextAnimation(TextAnimation.Effect.TYPEWRITER, TextAnimation.Unit.LETTER, 0,
                0.1, Easing.LINEAR, null, 0);
        TextLayer hello = new TextLayer(new Timing(0, 2, 0, 0), "Hello Ann",
                new TextStyle("sans", 30, 30, 1, 1.2, 0xffffffff, 0),
                10, TextLayer.Align.LEFT, 10, TextLayer.Anchor.TOP, 300, null, null, typewriter, null, null);
        Keyframes move = Keyframes.of(List.of(new Keyframe(0, 0.0, null, null, null, null, null, null, Easing.LINEAR),
                new Keyframe(1, 60.0, null, null, null, null, null, null, null)), 3, "keyframes");
        ShapeLayer square = new ShapeLayer(new Timing(0, 2, 0, 0), new Geometry.Rect(30, BAND + 30, 40, 40),
                new Fill.Solid(0xffff0000), null, null, move);
        TextLayer faded = new TextLayer(new Timing(0, 2, 0.8, 0), "Offer",
                new TextStyle("sans", 24, 24, 1, 1.2, 0xff00ff00, 0),
                200, TextLayer.Align.LEFT, BAND + 40, TextLayer.Anchor.TOP, 100, null, null, null, null, null);
        return new Scene(WIDTH, 2 * BAND, FPS, List.of(hello, square, faded), BAND, List.of(0, 1, 1));
    }

    static final List<Scene.Window> WINDOWS = List.of(new Scene.Window(4, 2, 220, 56, 0),
            new Scene.Window(20, 16, 290, 80, 56));

    @Test
    void eachWindowHoldsThePixelsOfItsPartOfTheBand() {
        Scene whole = scene();
        Scene windowed = whole.windowed(WINDOWS);
        assertThat(windowed.frameWidth()).isEqualTo(290);
        assertThat(windowed.frameHeight()).isEqualTo(136);
        try (FrameRenderer full = new FrameRenderer(whole, FontChain.of(Map.of()));
                FrameRenderer parts = new FrameRenderer(windowed, FontChain.of(Map.of()))) {
            int compared = 0;
            for (long frame = 3; frame < 50; frame += 3) {
                byte[] big = full.render(frame);
                byte[] small = parts.render(frame);
                assertThat(small).hasSize(4 * 290 * 136);
                for (int band = 0; band < 2; band++) {
                    Scene.Window window = WINDOWS.get(band);
                    for (int row = 0; row < window.height(); row++) {
                        int from = 4 * ((band * BAND + window.y() + row) * WIDTH + window.x());
                        int to = 4 * ((window.top() + row) * 290);
                        assertThat(Arrays.copyOfRange(small, to, to + 4 * window.width()))
                                .as("frame %d, band %d, row %d", frame, band, row)
                                .isEqualTo(Arrays.copyOfRange(big, from, from + 4 * window.width()));
                    }
                    compared++;
                }
                // something is drawn in each window (the comparison is not of two empty frames)
                assertThat(opaque(small, 0, 56 * 290)).as("the first window of frame %d", frame).isPositive();
                assertThat(opaque(small, 56 * 290, 136 * 290)).as("the second window of frame %d", frame).isPositive();
            }
            assertThat(compared).isEqualTo(32);
        }
    }

    @Test
    void theFirstBandsLayersDoNotSpillIntoTheSecondsWindow() {
        // the first band's window is cut short above its text's bottom: nothing of the text may show below it
        List<Scene.Window> tight = List.of(new Scene.Window(0, 0, WIDTH, 20, 0), new Scene.Window(0, 0, WIDTH, 2, 20));
        Scene scene = new Scene(WIDTH, 2 * BAND, FPS, List.of(scene().layers().get(0)), BAND, List.of(0))
                .windowed(tight);
        try (FrameRenderer renderer = new FrameRenderer(scene, FontChain.of(Map.of()))) {
            byte[] frame = renderer.render(40);
            assertThat(opaque(frame, 0, 20 * WIDTH)).isPositive();
            assertThat(opaque(frame, 20 * WIDTH, 22 * WIDTH)).as("the second window").isZero();
        }
    }

    @Test
    void aWindowOutsideItsBandOrAMissingOneIsRefused() {
        assertThatThrownBy(() -> scene().windowed(List.of(new Scene.Window(0, 60, 10, 50, 0),
                new Scene.Window(0, 0, 2, 2, 50)))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inside its band");
        assertThatThrownBy(() -> scene().windowed(List.of(new Scene.Window(0, 0, 2, 2, 0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one window per band");
    }

    /** How many pixels of {@code [from, to)} are not transparent. */
    static int opaque(byte[] rgba, int from, int to) {
        int count = 0;
        for (int p = from; p < to; p++) {
            if (rgba[4 * p + 3] != 0) {
                count++;
            }
        }
        return count;
    }
}
