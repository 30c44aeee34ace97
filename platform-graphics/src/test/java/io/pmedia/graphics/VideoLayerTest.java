package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.VideoFrames;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.Keyframe;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.text.FontChain;

/**
 * A video layer: its frames read as the scene's clock reaches them (frame n at n / fps into the layer, the last one
 * held), drawn over its box and moved and faded by its keyframes as the other layers are, measured in the frames the
 * engine hands FFmpeg; a stream that fails is refused under the layer's name.
 */
class VideoLayerTest {

    static final int WIDTH = 320;
    static final int HEIGHT = 80;
    static final double FPS = 25;

    @Test
    void eachFrameOfTheSceneShowsTheVideosFrameOfItsTimeAndTheLastOneHolds() {
        // 10 frames of 20x20, frame n grey 20 * n + 10; the layer from 0.4 s (frame 10 of the scene) to 2 s
        AtomicInteger opened = new AtomicInteger();
        VideoLayer video = new VideoLayer(new Timing(0.4, 2, 0, 0), "layers[0]", frames(10, 20, 20, opened), 100,
                30, 20, 20, 20, 20, null);

        try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(video)),
                FontChain.of(Map.of()))) {
            assertThat(alphaAt(renderer.render(9), 110, 40)).as("before the layer").isZero();
            assertThat(opened).as("not opened before it shows").hasValue(0);
            for (int frame : new int[]{10, 11, 14, 19}) {
                assertThat(greyAt(renderer.render(frame), 110, 40)).as("scene frame %d", frame)
                        .isCloseTo(20 * (frame - 10) + 10, within(1));
            }
            assertThat(greyAt(renderer.render(30), 110, 40)).as("held on its last frame").isCloseTo(190, within(1));
            assertThat(renderer.state(31)).as("a held frame is the same picture").isEqualTo(renderer.state(40));
        }
        assertThat(opened).hasValue(1);
    }

    @Test
    void aKeyframedVideoIsWhereAndAsOpaqueAsItsKeyframesSay() {
        // a white 20x20 video in the box at (0, 30): x +0 -> +200 and opacity 0 -> 1 from 0 to 1 s, linear
        Keyframes keyframes = Keyframes.of(List.of(
                new Keyframe(0, 0.0, null, null, null, 0.0, null, null, Easing.LINEAR),
                new Keyframe(1, 200.0, null, null, null, 1.0, null, null, null)), 2, "keyframes");
        VideoLayer video = new VideoLayer(new Timing(0, 2, 0, 0), "layers[0]", white(50, 20, 20), 0, 30, 20, 20, 20,
                20, keyframes);

        try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(video)),
                FontChain.of(Map.of()))) {
            for (int frame : new int[]{5, 10, 15, 20, 25, 40}) {
                double progress = Math.min(1, frame / FPS);
                byte[] rgba = renderer.render(frame);
                int left = leftEdge(rgba, 40);
                assertThat(left).as("left edge at frame %d", frame).isCloseTo((int) Math.round(200 * progress),
                        within(1));
                assertThat(alphaAt(rgba, left + 10, 40) / 255.0).as("opacity at frame %d", frame)
                        .isCloseTo(progress, within(1 / 255.0 + 0.01));
            }
        }
    }

    @Test
    void framesThatCannotBeReadAreRefusedUnderTheLayersName() {
        VideoFrames broken = () -> new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("the video cannot be decoded: moov atom not found");
            }
        };
        VideoLayer video = new VideoLayer(new Timing(0, 1, 0, 0), "video layer of segment 'a'", broken, 0, 0, 20,
                20, 20, 20, null);

        try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(video)),
                FontChain.of(Map.of()))) {
            assertThatThrownBy(() -> renderer.render(0)).isInstanceOf(SceneException.class)
                    .hasMessage("video layer of segment 'a': the video cannot be decoded: moov atom not found");
        }
    }

    /** {@code count} opaque frames, frame n grey 20 n + 10; {@code opened} counts the streams opened. */
    static VideoFrames frames(int count, int width, int height, AtomicInteger opened) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int n = 0; n < count; n++) {
            byte grey = (byte) (20 * n + 10);
            for (int i = 0; i < width * height; i++) {
                out.writeBytes(new byte[]{grey, grey, grey, (byte) 0xff});
            }
        }
        byte[] bytes = out.toByteArray();
        return () -> {
            opened.incrementAndGet();
            return new ByteArrayInputStream(bytes);
        };
    }

    private static VideoFrames white(int count, int width, int height) {
        byte[] bytes = new byte[count * width * height * 4];
        java.util.Arrays.fill(bytes, (byte) 0xff);
        return () -> new ByteArrayInputStream(bytes);
    }

    private static int greyAt(byte[] rgba, int x, int y) {
        return rgba[(y * WIDTH + x) * 4] & 0xff;
    }

    private static int alphaAt(byte[] rgba, int x, int y) {
        return rgba[(y * WIDTH + x) * 4 + 3] & 0xff;
    }

    /** The first column of row {@code y} with any alpha. */
    private static int leftEdge(byte[] rgba, int y) {
        for (int x = 0; x < WIDTH; x++) {
            if (alphaAt(rgba, x, y) > 0) {
                return x;
            }
        }
        return -1;
    }
}
