package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

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
 * The frames a stream must carry ({@link FrameRenderer#changes}): every frame whose picture differs from the one
 * before it, seen in the pixels of every frame drawn, and few besides, so that a template's still stretches are one
 * frame each on the pipe; what {@link FrameStream} writes of them is those frames' pictures.
 */
class FrameChangesTest {

    static final int WIDTH = 320;
    static final int HEIGHT = 120;
    static final double FPS = 25;
    static final int FRAMES = 150;

    /**
     * A text typed in and faded out, a shape moved by keyframes, a video of 10 frames (0.4 s): each moves for a while
     * and holds still for longer. (A video that ends before its layer holds its last frame, but its frames stay listed:
     * which frame it has is only known once it is read.)
     */
    static Scene scene() {
        TextAnimation typewriter = new TextAnimation(TextAnimation.Effect.TYPEWRITER, TextAnimation.Unit.LETTER, 0,
                0.1, Easing.LINEAR, null, 0);
        TextLayer text = new TextLayer(new Timing(0.2, 5, 0, 0.4), "Hello Ann",
                new TextStyle("sans", 30, 30, 1, 1.2, 0xffffffff, 0),
                10, TextLayer.Align.LEFT, 10, TextLayer.Anchor.TOP, 300, null, null, typewriter, null, null);
        Keyframes move = Keyframes.of(List.of(new Keyframe(1, 0.0, null, null, null, null, null, null, Easing.LINEAR),
                new Keyframe(1.6, 100.0, null, null, null, null, null, null, null)), 3, "keyframes");
        ShapeLayer shape = new ShapeLayer(new Timing(1, 4, 0.2, 0), new Geometry.Rect(10, 60, 40, 40),
                new Fill.Solid(0xffff0000), null, null, move);
        VideoLayer video = new VideoLayer(new Timing(3, 3.4, 0, 0), "layers[2]",
                VideoLayerTest.frames(10, 20, 20, new AtomicInteger()), 250, 70, 20, 20,
                20, 20, null);
        return new Scene(WIDTH, HEIGHT, FPS, List.of(text, shape, video));
    }

    @Test
    void everyFrameThatDiffersFromTheOneBeforeIsListedAndTheStillOnesAreNot() {
        Set<Long> differs = new TreeSet<>();
        byte[][] pictures = new byte[FRAMES][];
        try (FrameRenderer renderer = renderer(scene())) {
            for (int i = 0; i < FRAMES; i++) {
                pictures[i] = renderer.render(i);
                if (i == 0 || !Arrays.equals(pictures[i], pictures[i - 1])) {
                    differs.add((long) i);
                }
            }
        }
        long[] changes;
        try (FrameRenderer renderer = renderer(scene())) {
            changes = renderer.changes(FRAMES, i -> i == 149);
        }
        Set<Long> listed = new TreeSet<>();
        Arrays.stream(changes).forEach(listed::add);

        assertThat(listed).as("every frame whose picture changed").containsAll(differs).contains(149L);
        assertThat(changes).as("ascending").isSorted();
        // typed in over 0.2-1.1 s, the shape faded in at 1 s and moved over 2-2.6 s, the video's 10 frames from 3 s,
        // the text's fade out over 4.6-5 s, and the layers' ends: about 50 of 150 frames
        assertThat(changes.length).as(listed.toString()).isBetween(differs.size(), differs.size() + 12)
                .isLessThan(FRAMES / 2);
    }

    @Test
    void theStreamCarriesTheListedFramesPictures() throws Exception {
        long[] changes;
        try (FrameRenderer renderer = renderer(scene())) {
            changes = renderer.changes(FRAMES, i -> false);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FrameRenderer renderer = renderer(scene())) {
            FrameStream.write(renderer, changes, out);
        }
        int size = WIDTH * HEIGHT * 4;
        byte[] written = out.toByteArray();
        assertThat(written).hasSize(changes.length * size);
        try (FrameRenderer renderer = renderer(scene())) {
            for (int k = 0; k < changes.length; k++) {
                assertThat(Arrays.copyOfRange(written, k * size, (k + 1) * size)).as("frame %d", changes[k])
                        .isEqualTo(renderer.render(changes[k]));
            }
        }
    }

    private static FrameRenderer renderer(Scene scene) {
        return new FrameRenderer(scene, FontChain.of(Map.of("sans", TextShapingTest.DEJAVU)));
    }
}
