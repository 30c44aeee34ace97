package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.pmedia.testing.arch.Rooms;

/**
 * platform-graphics' rooms (docs/architecture.md): the scene and its renderer on top (the root package: what a caller
 * uses), over Lottie, over text shaping, over drawing and motion, over the one error every room may throw. A room
 * imports only itself and the rooms below it, and the engine knows no service.
 */
class ArchitectureTest {

    static final Rooms ROOMS = Rooms.of("io.pmedia.graphics",
            Rooms.ROOT,
            "lottie",
            "text",
            "draw motion",
            "error");

    @Test
    void everyRoomImportsOnlyTheRoomsBelowItAndKnowsNoService() {
        JavaClasses classes = ROOMS.production();

        assertThat(classes.contain(FrameRenderer.class)).isTrue();
        ROOMS.layering().check(classes);
        ROOMS.noOtherService().check(classes);
    }
}
