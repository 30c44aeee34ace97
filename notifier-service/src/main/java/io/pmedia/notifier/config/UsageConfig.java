package io.pmedia.notifier.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How usage is counted and read (docs/usage.md). */
@ConfigMapping(prefix = "pmedia.usage")
public interface UsageConfig {

    /**
     * How long the key of a counted event is kept, so that a redelivered event is recognised: longer than any
     * redelivery comes back (the topics keep 7 days by default).
     */
    @WithDefault("30d")
    Duration eventRetention();

    /** The longest period one usage read may span, in days. */
    @WithDefault("366")
    int maxDays();
}
