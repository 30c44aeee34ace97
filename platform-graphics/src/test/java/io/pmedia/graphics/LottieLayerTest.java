package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.OutputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.lottie.LottieCheck;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.graphics.text.FontChain;

/**
 * A Lottie layer's clock: the file's in point at the layer's start, its frames at {@code speed}, the last frame
 * held or the animation looped; frames are drawn while it moves and repeated while it holds.
 */
class LottieLayerTest {

    static LottieLayer layer(double start, double speed, boolean loop, String json) {
        return new LottieLayer(new Timing(start, 100, 0, 0), json, 0, 0, 320, 180, null, speed, loop, null);
    }

    @Test
    void theInPointShowsAtTheStartAndTheLastFrameHolds() {
        LottieLayer layer = layer(2, 1, false, "{}");
        assertThat(layer.fit()).isEqualTo(Fit.CONTAIN);
        assertThat(layer.frameAt(0, 10, 40, 30)).isEqualTo(10);
        assertThat(layer.frameAt(2, 10, 40, 30)).isEqualTo(10);
        assertThat(layer.frameAt(2 + 5 / 30.0, 10, 40, 30)).isEqualTo(15);
        assertThat(layer.frameAt(2 + 29 / 30.0, 10, 40, 30)).isEqualTo(39);
        assertThat(layer.frameAt(60, 10, 40, 30)).as("the last frame, op - 1").isEqualTo(39);
    }

    @Test
    void speedAndLoopRunTheFilesClock() {
        assertThat(layer(0, 2, false, "{}").frameAt(0.5, 0, 90, 30)).isEqualTo(30);
        assertThat(layer(0, 0.5, false, "{}").frameAt(1, 0, 90, 30)).isEqualTo(15);
        assertThat(layer(0, 1, true, "{}").frameAt(3.5, 0, 90, 30)).isCloseTo(15, within(1e-9));
    }

    @Test
    void framesAreDrawnWhileItMovesAndRepeatedWhileItHolds() throws Exception {
        byte[] file = Files.readAllBytes(LottiePersonalizeTest.MOTIONS.resolve("check-seal.json"));
        LottieCheck check = LottieFile.check(file);
        String json = LottieFile.personalize(file, Map.of(), Map.of(), Map.of());
        FontChain fonts = FontChain.of(Map.of());
        LottieLayer held = layer(0, 1, false, json);
        assertThat(held.stillFrom(check)).isCloseTo(74 / 30.0, within(1e-9));
        try (FrameRenderer renderer = new FrameRenderer(new Scene(320, 180, 30, List.of(held)), fonts)) {
            assertThat(FrameStream.write(renderer, 120, OutputStream.nullOutputStream())).as("75 frames, then held")
                    .isEqualTo(75);
        }
        LottieLayer looped = layer(0, 1, true, json);
        assertThat(looped.stillFrom(check)).isInfinite();
        try (FrameRenderer renderer = new FrameRenderer(new Scene(320, 180, 30, List.of(looped)), fonts)) {
            assertThat(FrameStream.write(renderer, 120, OutputStream.nullOutputStream())).isEqualTo(120);
        }
    }
}
