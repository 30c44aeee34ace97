package io.pmedia.media.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

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

    /**
     * Every line of a role names a setting the service reads: a line under a mapped prefix that maps to nothing is
     * SRCFG00050 at start, and the process of that role never starts (as the render workers did once).
     */
    @ParameterizedTest
    @ValueSource(strings = {"api", "worker"})
    void everySettingOfARoleIsOneTheServiceReads(String role) throws Exception {
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultInterceptors().addSystemSources()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withMapping(MediaConfig.class).withMapping(ShareConfig.class)
                .withSources(
                        new PropertiesConfigSource(getClass().getClassLoader().getResource("application.properties"),
                                250))
                .withSources(
                        new PropertiesConfigSource(MediaRoleConfigSource.roleProperties(role), "role " + role, 260))
                .build();
        if (role.equals("worker")) {
            assertThat(config.getConfigMapping(MediaConfig.class).render().sweepEnabled()).isFalse();
            assertThat(config.getConfigMapping(ShareConfig.class).sweepEnabled()).isFalse();
        } else {
            assertThat(config.getConfigMapping(MediaConfig.class).render().lanes().enabled()).isFalse();
        }
    }
}
