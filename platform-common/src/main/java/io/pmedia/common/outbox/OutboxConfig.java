package io.pmedia.common.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the outbox relay; a service that publishes nothing sets {@code pmedia.outbox.enabled=false}. */
@ConfigMapping(prefix = "pmedia.outbox")
public interface OutboxConfig {

    /** Whether this service runs a relay (needs {@code kafka.bootstrap.servers}). */
    @WithDefault("true")
    boolean enabled();

    /** Most rows published per transaction. */
    @WithDefault("500")
    int batchSize();
}
