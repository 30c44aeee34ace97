package io.pmedia.batch;

import org.junit.jupiter.api.Test;

import io.pmedia.testing.arch.Rooms;

/**
 * batch-service's rooms (docs/architecture.md): a room imports only itself and the rooms below it; Kafka only in
 * messaging/, SQL only in repository/, REST clients only in client/, no other service imported. platform-testing's
 * RoomsTest shows each rule failing on a class that breaks it.
 */
class ArchitectureTest {

    static final Rooms ROOMS = Rooms.of("io.pmedia.batch",
            "rest messaging",
            "service",
            "client",
            "repository",
            "config");

    @Test
    void everyRoomImportsOnlyTheRoomsBelowIt() {
        ROOMS.assertHold(BatchTask.class);
    }
}
