package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.Keyframe;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.text.FontChain;

/**
 * A keyframed square measured in the frames the engine hands FFmpeg: its left edge and its opacity at known times
 * are the keyframes' values within one frame of motion.
 */
class KeyframeTimingTest {

    static final int WIDTH = 640;
    static final int HEIGHT = 120;
    static final double FPS = 25;

    @Test
    void positionAndOpacityFollowTheKeyframesWithinOneFrame() {
        // From x=20 at 0.2 s to x=520 at 1.2 s, linear (500 px a second, 20 px a frame), opacity 0 -> 1 meanwhile;
        // then eased out to 1.6 s.
        Keyframes keyframes = Keyframes.of(List.of(
                new Keyframe(0.2, 0.0, null, null, null, 0.0, null, null, Easing.LINEAR),
                new Keyframe(1.2, 500.0, null, null, null, 1.0, null, null, Easing.parse("ease-out", "k")),
                new Keyframe(1.6, 560.0, null, null, null, null, null, null, null)), 2, "keyframes");
        ShapeLayer square = new ShapeLayer(new Timing(0, 2, 0, 0), new Geometry.Rect(20, 40, 40, 40),
                new Fill.Solid(0xffffffff), null, null, keyframes);
        Scene scene = new Scene(WIDTH, HEIGHT, FPS, List.of(square));

        try (FrameRenderer renderer = new FrameRenderer(scene, FontChain.of(Map.of()))) {
            for (int frame : new int[]{0, 5, 10, 15, 20, 25, 30, 35, 40, 49}) {
                double time = frame / FPS;
                byte[] rgba = renderer.render(frame);
                double expectedX = 20 + (time <= 0.2 ? 0 : time >= 1.2 ? 500 + 60 * ease(time) : (time - 0.2) * 500);
                double expectedOpacity = time <= 0.2 ? 0 : time >= 1.2 ? 1 : time - 0.2;
                double onePixelPerFrame = 500 / FPS;
                if (expectedOpacity > 0.05) {
                    assertThat(leftEdge(rgba)).as("left edge at frame %d", frame)
                            .isCloseTo(expectedX, within(onePixelPerFrame));
                }
                assertThat(alpha(rgba)).as("opacity at frame %d", frame)
                        .isCloseTo(expectedOpacity, within(1 / FPS + 1 / 255.0));
            }
        }
    }

    private static double ease(double time) {
        return Easing.parse("ease-out", "k").apply((time - 1.2) / 0.4);
    }

    /** The first column (from the left) on the square's middle row with any alpha. */
    private static double leftEdge(byte[] rgba) {
        int row = 60;
        for (int x = 0; x < WIDTH; x++) {
            if ((rgba[(row * WIDTH + x) * 4 + 3] & 0xff) > 0) {
                return x;
            }
        }
        return -1;
    }

    /** The highest alpha on the middle row: the square's opacity. */
    private static double alpha(byte[] rgba) {
        int row = 60;
        int max = 0;
        for (int x = 0; x < WIDTH; x++) {
            max = Math.max(max, rgba[(row * WIDTH + x) * 4 + 3] & 0xff);
        }
        return max / 255.0;
    }
}
