package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Fill;
import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.draw.VideoFrames;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.TextAnimation;
import io.pmedia.graphics.text.FontChain;

/**
 * The frames are drawn ahead of the stream on a thread of their own: the drawing goes on while the stream waits
 * for its reader, the frames arrive in order, a stream that fails stops the drawing, and a scene the engine refuses
 * fails the write after the frames before it.
 */
class FrameStreamTest {

    static final FontChain FONTS = FontChain.of(Map.of());

    /** A text fading in over its first second: every frame of it differs from the last. */
    static Scene fading() {
        TextAnimation fade = new TextAnimation(TextAnimation.Effect.FADE, TextAnimation.Unit.ALL, 1, 0,
                Easing.LINEAR, null, 0);
        return TextAnimationTest.scene(fade, null);
    }

    @Test
    void framesAreDrawnAheadWhileTheStreamWaitsForItsReader() throws Exception {
        CountDownLatch reader = new CountDownLatch(1);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        OutputStream slow = new OutputStream() {
            @Override
            public void write(int b) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                try {
                    if (!reader.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("the test's reader never came");
                    }
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                written.write(b, off, len);
            }
        };
        Scene scene = fading();
        try (FrameRenderer renderer = TextAnimationTest.renderer(scene)) {
            CompletableFuture<Long> drawn = CompletableFuture.supplyAsync(() -> {
                try {
                    return FrameStream.write(renderer, 10, slow);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            // while the first frame waits for the reader, the next ones are drawn until the queue is full
            await().atMost(Duration.ofSeconds(20)).until(FrameStreamTest::drawerWaitsForRoom);
            reader.countDown();
            assertThat(drawn.get(30, TimeUnit.SECONDS)).isEqualTo(10);
        }
        // in order: each frame as the renderer draws it alone
        byte[] all = written.toByteArray();
        int size = scene.width() * scene.height() * 4;
        assertThat(all).hasSize(10 * size);
        try (FrameRenderer alone = TextAnimationTest.renderer(scene)) {
            for (int i = 0; i < 10; i++) {
                assertThat(Arrays.equals(all, i * size, (i + 1) * size, alone.render(i), 0, size))
                        .as("frame %d", i).isTrue();
            }
        }
    }

    @Test
    void aStreamThatFailsStopsTheDrawing() {
        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        try (FrameRenderer renderer = TextAnimationTest.renderer(fading())) {
            assertThatThrownBy(() -> FrameStream.write(renderer, 100_000, closed)).isInstanceOf(IOException.class)
                    .hasMessage("Broken pipe");
            assertThat(drawerThreads()).as("the drawing thread ended with the write").isEmpty();
        }
    }

    @Test
    void aRefusedSceneFailsTheWriteAfterTheFramesBeforeIt() {
        // a video whose decoder delivers three 16x16 frames and then fails: the engine refuses the scene at frame 3
        byte[] three = new byte[3 * 16 * 16 * 4];
        Arrays.fill(three, (byte) 0xff);
        VideoFrames failing = () -> new SequenceInputStream(new ByteArrayInputStream(three), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("the decoder died");
            }
        });
        Scene scene = new Scene(64, 32, 25, List.of(new VideoLayer(new Timing(0, 1, 0, 0), "videos[0]", failing, 0,
                0, 64, 32, 16, 16, null)));
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        try (FrameRenderer renderer = new FrameRenderer(scene, FontChain.of(Map.of()))) {
            assertThatThrownBy(() -> FrameStream.write(renderer, 10, written)).isInstanceOf(SceneException.class)
                    .hasMessageContaining("the decoder died");
        }
        assertThat(written.size()).as("the three frames before it").isEqualTo(3 * 64 * 32 * 4);
        assertThat(drawerThreads()).isEmpty();
    }

    @Test
    void anOpaqueFrameIsReadBackAsItIsAndATranslucentOneWithStraightAlpha() {
        Timing always = new Timing(-1, 10, 0, 0);
        ShapeLayer half = new ShapeLayer(always, new Geometry.Rect(0, 0, 8, 8), new Fill.Solid(0x80336699), null,
                null, null);
        ShapeLayer ground = new ShapeLayer(always, new Geometry.Rect(0, 0, 8, 8), new Fill.Solid(0xff000000), null,
                null, null);
        try (FrameRenderer translucent = new FrameRenderer(new Scene(8, 8, 25, List.of(half)), FONTS);
                FrameRenderer opaque = new FrameRenderer(new Scene(8, 8, 25, List.of(ground, half)), FONTS)) {
            // straight: the colour as given (to a rounding), its alpha apart; premultiplied would read 1a 33 4d 80
            assertThat(rgba(translucent.render(0))).satisfies(px -> {
                assertThat(px[0]).isCloseTo(0x33, within(1));
                assertThat(px[1]).isCloseTo(0x66, within(1));
                assertThat(px[2]).isCloseTo(0x99, within(1));
                assertThat(px[3]).isEqualTo(0x80);
            });
            // over black, half of it: opaque, the same bytes either way
            assertThat(rgba(opaque.render(0))).satisfies(px -> {
                assertThat(px[0]).isCloseTo(0x1a, within(1));
                assertThat(px[1]).isCloseTo(0x33, within(1));
                assertThat(px[2]).isCloseTo(0x4d, within(1));
                assertThat(px[3]).isEqualTo(0xff);
            });
        }
    }

    /** The first pixel's four channels, 0 to 255. */
    private static int[] rgba(byte[] frame) {
        return new int[]{frame[0] & 0xff, frame[1] & 0xff, frame[2] & 0xff, frame[3] & 0xff};
    }

    private static boolean drawerWaitsForRoom() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().equals("graphics-draw"))
                .anyMatch(e -> e.getKey().getState() == Thread.State.WAITING && Arrays.stream(e.getValue())
                        .anyMatch(frame -> frame.getClassName().endsWith("ArrayBlockingQueue")
                                && frame.getMethodName().equals("put")));
    }

    private static List<Thread> drawerThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("graphics-draw"))
                .filter(Thread::isAlive).toList();
    }
}
