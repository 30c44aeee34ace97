package io.pmedia.media.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The role decides which components a media-service process runs (media-roles.properties). */
class MediaRoleConfigSourceTest {

    @AfterEach
    void noRole() {
        System.clearProperty("pmedia.media.role");
    }

    @Test
    void theApiRendersNothing() {
        System.setProperty("pmedia.media.role", "api");
        assertThat(new MediaRoleConfigSource().getProperties())
                .containsEntry("pmedia.media.render.lanes.enabled", "false")
                .doesNotContainKeys("mp.messaging.incoming.render-results-in.enabled", "pmedia.outbox.enabled",
                        "pmedia.media.render.sweep-enabled", "pmedia.share.sweep-enabled");
    }

    @Test
    void aWorkerRendersAndRunsNothingElse() {
        System.setProperty("pmedia.media.role", "Worker");
        assertThat(new MediaRoleConfigSource().getProperties())
                .containsEntry("mp.messaging.incoming.render-results-in.enabled", "false")
                .containsEntry("pmedia.outbox.enabled", "false")
                .containsEntry("pmedia.media.render.sweep-enabled", "false")
                .containsEntry("pmedia.share.sweep-enabled", "false")
                .doesNotContainKey("pmedia.media.render.lanes.enabled");
    }

    @Test
    void withoutARoleOneProcessDoesBoth() {
        assertThat(new MediaRoleConfigSource().getProperties()).isEmpty();
    }

    @Test
    void anUnknownRoleIsRefusedByName() {
        System.setProperty("pmedia.media.role", "renderer");
        assertThatThrownBy(MediaRoleConfigSource::new).hasMessageContaining("'renderer'");
    }
}
