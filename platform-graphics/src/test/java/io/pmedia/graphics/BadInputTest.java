package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pmedia.graphics.draw.Geometry;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.Keyframe;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.motion.TextAnimation;

/** What the engine refuses, named by the JSON path the caller passed. */
class BadInputTest {

    @Test
    void anUnknownEasingNamesItsPath() {
        assertThatThrownBy(() -> Easing.parse("bounce-in", "segments[0].layers[1].keyframes[2].easing"))
                .isInstanceOfSatisfying(SceneException.class, e -> {
                    assertThat(e.path()).isEqualTo("segments[0].layers[1].keyframes[2].easing");
                    assertThat(e.reason()).contains("bounce-in").contains("cubic-bezier");
                });
        assertThatThrownBy(() -> Easing.parse("cubic-bezier(1.5, 0, 0.5, 1)", "a.easing"))
                .isInstanceOf(SceneException.class).hasMessageStartingWith("a.easing: ");
        assertThatThrownBy(() -> Easing.parse("cubic-bezier(0.1, 0.2)", "a.easing"))
                .isInstanceOf(SceneException.class);
    }

    @Test
    void cssEasingsHaveTheirShapes() {
        assertThat(Easing.parse("linear", "e").apply(0.3)).isEqualTo(0.3);
        assertThat(Easing.parse("ease-in", "e").apply(0.5)).isBetween(0.30, 0.33);
        assertThat(Easing.parse("ease-out", "e").apply(0.5)).isBetween(0.67, 0.70);
        assertThat(Easing.parse("cubic-bezier(0.42, 0, 0.58, 1)", "e").apply(0.5)).isBetween(0.499, 0.501);
        assertThat(Easing.parse("steps(4)", "e").apply(0.3)).isEqualTo(0.25);
        assertThat(Easing.parse("cubic-bezier(0.3, -0.5, 0.7, 1.5)", "e").apply(0.1)).isNegative();
    }

    @Test
    void aPathThatDoesNotParseNamesItsPath() {
        assertThatThrownBy(() -> Geometry.path(0, 0, 10, 10, "M 0 0 L 10 <script>", "segments[0].layers[3].path"))
                .isInstanceOfSatisfying(SceneException.class,
                        e -> assertThat(e.path()).isEqualTo("segments[0].layers[3].path"));
        assertThatThrownBy(() -> Geometry.path(0, 0, 10, 10, "L 10 10 Q", "p")).isInstanceOf(SceneException.class);
        assertThatThrownBy(() -> Geometry.path(0, 0, 10, 10, "M 0 0 L 10", "p")).isInstanceOf(SceneException.class);
        assertThat(Geometry.path(0, 0, 10, 10, "M0 0 L10 0 L10 10 Z", "p").parsed().getBounds().getWidth())
                .isEqualTo(10);
    }

    @Test
    void aKeyframeOutsideItsLayerNamesItsPath() {
        assertThatThrownBy(() -> Keyframes.of(List.of(new Keyframe(0, 0.0, null, null, null, null, null, null, null),
                new Keyframe(3.5, 10.0, null, null, null, null, null, null, null)), 3, "layers[0].keyframes"))
                .isInstanceOfSatisfying(SceneException.class,
                        e -> assertThat(e.path()).isEqualTo("layers[0].keyframes[1].time"));
    }

    @Test
    void anUnknownAnimationNamesItsPath() {
        assertThatThrownBy(() -> TextAnimation.Effect.parse("wobble", "layers[0].animate.in.type"))
                .isInstanceOfSatisfying(SceneException.class,
                        e -> assertThat(e.reason()).contains("fade, slide, scale, pop, typewriter, blur"));
    }
}
