package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;

import org.jetbrains.skia.Rect;
import org.junit.jupiter.api.Test;

import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.TextAnimation;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.graphics.text.TextStyle;

/** Text animations seen in the frames: which letters show when, and what a still frame costs. */
class TextAnimationTest {

    static final int WIDTH = 640;
    static final int HEIGHT = 160;
    static final double FPS = 25;
    static final TextStyle STYLE = new TextStyle("sans", 60, 60, 1, 1.2, 0xffffffff, 0);

    static Scene scene(TextAnimation in, TextAnimation out) {
        return new Scene(WIDTH, HEIGHT, FPS, List.of(new TextLayer(new Timing(0, 4, 0, 0), "ABCDEFGH", STYLE, 20,
                TextLayer.Align.LEFT, 40, TextLayer.Anchor.TOP, 600, null, null, in, out, null)));
    }

    static FrameRenderer renderer(Scene scene) {
        return new FrameRenderer(scene, FontChain.of(Map.of("sans", TextShapingTest.DEJAVU)));
    }

    @Test
    void aTypewriterShowsOneMoreLetterEveryStagger() {
        // Letter i appears at i * 0.2 s: at frame 11 (0.44 s) letters A, B, C show and D does not.
        TextAnimation typewriter = new TextAnimation(TextAnimation.Effect.TYPEWRITER, TextAnimation.Unit.LETTER, 0,
                0.2, Easing.LINEAR, null, 0);
        try (FrameRenderer renderer = renderer(scene(typewriter, null))) {
            byte[] frame = renderer.render(11);
            int right = rightmostInk(frame);
            Rect box = renderer.box(0);
            double letter = box.getWidth() / 8;
            assertThat((double) (right - box.getLeft())).isBetween(2.5 * letter, 3.2 * letter);
        }
    }

    @Test
    void aPerLetterFadeIsStaggeredAndEndsAtRest() {
        TextAnimation fade = new TextAnimation(TextAnimation.Effect.FADE, TextAnimation.Unit.LETTER, 0.4, 0.1,
                Easing.parse("ease-out", "e"), null, 0);
        try (FrameRenderer renderer = renderer(scene(fade, null))) {
            Rect box = renderer.box(0);
            // 0.4 s: letter A is done, letter E (starting 0.4 s) is not there yet.
            byte[] frame = renderer.render(10);
            double letter = box.getWidth() / 8;
            assertThat(maxAlpha(frame, box.getLeft(), box.getLeft() + letter)).isEqualTo(255);
            assertThat(maxAlpha(frame, box.getLeft() + 4.2 * letter, box.getLeft() + 4.8 * letter)).isZero();
            // 2 s: everything at rest, the same picture as a text without animation.
            assertThat(renderer.render(50)).isEqualTo(renderFrame(scene(null, null), 50));
        }
    }

    @Test
    void slidePopBlurAndOutAnimationsDrawWithinTheCanvas() {
        for (TextAnimation.Effect effect : TextAnimation.Effect.values()) {
            TextAnimation in = new TextAnimation(effect, TextAnimation.Unit.WORD, 0.5, 0.1, Easing.LINEAR,
                    TextAnimation.Direction.LEFT, 80);
            TextAnimation out = new TextAnimation(effect, TextAnimation.Unit.LINE, 0.5, 0, Easing.LINEAR, null, 0);
            try (FrameRenderer renderer = renderer(scene(in, out))) {
                assertThat(maxAlpha(renderer.render(5), 0, WIDTH)).as("%s mid-way in", effect).isPositive();
                assertThat(maxAlpha(renderer.render(99), 0, WIDTH)).as("%s at the end", effect)
                        .isLessThan(effect == TextAnimation.Effect.TYPEWRITER ? 256 : 200);
            }
        }
    }

    @Test
    void stillFramesAreWrittenAgainNotDrawnAgain() throws Exception {
        TextAnimation fade = new TextAnimation(TextAnimation.Effect.FADE, TextAnimation.Unit.ALL, 1, 0,
                Easing.LINEAR, null, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FrameRenderer renderer = renderer(scene(fade, null))) {
            long drawn = FrameStream.write(renderer, 100, out);
            // 26 frames of fade (0 to 1 s), then the same picture: drawn once more at most.
            assertThat(drawn).isBetween(25L, 27L);
        }
        assertThat(out.size()).isEqualTo(100 * WIDTH * HEIGHT * 4);
    }

    private static byte[] renderFrame(Scene scene, long index) {
        try (FrameRenderer renderer = renderer(scene)) {
            return renderer.render(index);
        }
    }

    private static int rightmostInk(byte[] rgba) {
        int right = -1;
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                if ((rgba[(y * WIDTH + x) * 4 + 3] & 0xff) > 64) {
                    right = Math.max(right, x);
                }
            }
        }
        return right;
    }

    private static int maxAlpha(byte[] rgba, double fromX, double toX) {
        int max = 0;
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = (int) Math.max(0, fromX); x < Math.min(WIDTH, toX); x++) {
                max = Math.max(max, rgba[(y * WIDTH + x) * 4 + 3] & 0xff);
            }
        }
        return max;
    }
}
