package io.pmedia.media;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;

import io.pmedia.testing.arch.Rooms;

/**
 * media-service's rooms (docs/architecture.md): the API role (rest, messaging, service) and the worker role (worker)
 * over the render side's rooms, the template model, the store and the domain. A room imports only itself and the
 * rooms below it; Kafka only in messaging/ and worker/, SQL only in repository/, REST clients only in client/.
 */
class ArchitectureTest {

    static final Rooms ROOMS = Rooms.of("io.pmedia.media",
            "rest messaging health",
            "service worker",
            "render.engine",
            "render.graph render.store",
            "render.graphics",
            "render.speech",
            "render.ffmpeg render.stream",
            "render",
            "template",
            "repository",
            "config");

    @Test
    void everyRoomImportsOnlyTheRoomsBelowIt() {
        ROOMS.assertHold(MediaRequest.class);
    }

    @Test
    void theRenderSideHasNoRoomOfMoreThanSixteenClasses() {
        ROOMS.roomsOfAtMost(16).check(ROOMS.production().that(JavaClass.Predicates
                .resideInAPackage("io.pmedia.media.render..")));
    }
}
