package io.pmedia.batch.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Share links of rendered rows (docs/sharing.md): the same settings as media-service's. */
@ConfigMapping(prefix = "pmedia.share")
public interface ShareConfig {

    /** The public base URL of share pages: a row's {@code share-url} is {@code <base-url>/v/<share-id>}. */
    @WithDefault("http://127.0.0.1:8080")
    String baseUrl();

    /** How long videos and their links live when neither the template nor the vendor says. */
    @WithDefault("90")
    int defaultRetentionDays();

    /** How often the retention sweep deletes the objects of tasks whose videos' retention has ended. */
    @WithDefault("10m")
    Duration sweepEvery();

    /** How long after start the first sweep runs. */
    @WithDefault("1m")
    Duration sweepDelay();

    /** Tasks the sweep expires per transaction. */
    @WithDefault("10")
    int sweepBatch();
}
