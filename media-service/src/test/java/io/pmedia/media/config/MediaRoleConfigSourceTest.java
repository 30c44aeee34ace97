package io.pmedia.media.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.pmedia.common.config.ShareConfig;
import io.pmedia.common.outbox.OutboxConfig;
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

    /**
     * Every line of a role is a setting the service has: one the typed configuration does not know (a misspelt or
     * removed property under {@code pmedia.media}) stops the process at start, as it once stopped every render worker.
     */
    @ParameterizedTest
    @ValueSource(strings = {"api", "worker"})
    void everyLineOfARoleIsASettingTheServiceKnows(String role) throws IOException {
        Map<String, String> lines = MediaRoleConfigSource.roleProperties(role);
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultInterceptors().addSystemSources()
                .withConverter(Duration.class, 100, new DurationConverter())
                .withConverter(MemorySize.class, 100, new MemorySizeConverter())
                .withSources(new PropertiesConfigSource(
                        MediaRoleConfigSourceTest.class.getClassLoader().getResource("application.properties"), 250))
                .withSources(new PropertiesConfigSource(lines, "role " + role, 260))
                .withMapping(MediaConfig.class).withMapping(ShareConfig.class).withMapping(OutboxConfig.class)
                .build();
        assertThat(lines).isNotEmpty();
        if ("worker".equals(role)) {
            assertThat(config.getConfigMapping(MediaConfig.class).render().sweepEnabled()).isFalse();
            assertThat(config.getConfigMapping(ShareConfig.class).sweepEnabled()).isFalse();
            assertThat(config.getConfigMapping(OutboxConfig.class).enabled()).isFalse();
        } else {
            assertThat(config.getConfigMapping(MediaConfig.class).render().lanes().enabled()).isFalse();
        }
    }

    @Test
    void anUnknownRoleIsRefusedByName() {
        System.setProperty("pmedia.media.role", "renderer");
        assertThatThrownBy(MediaRoleConfigSource::new).hasMessageContaining("'renderer'");
    }
}
