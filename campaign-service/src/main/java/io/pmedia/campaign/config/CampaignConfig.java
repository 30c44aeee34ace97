package io.pmedia.campaign.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "pmedia.campaign")
public interface CampaignConfig {

    Scheduler scheduler();

    interface Scheduler {

        /** Whether this replica fires transitions (every replica may; each transition fires once). */
        @WithDefault("true")
        boolean enabled();

        /** The safety-net poll; a timer armed for the next due transition gives the precision. */
        @WithDefault("1s")
        Duration pollInterval();

        /** Most transitions one claim takes. */
        @WithDefault("100")
        int batchSize();
    }
}
