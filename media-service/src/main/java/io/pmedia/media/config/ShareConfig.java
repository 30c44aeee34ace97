package io.pmedia.media.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Share links (docs/sharing.md): where their pages are served and how long a video is kept. */
@ConfigMapping(prefix = "pmedia.share")
public interface ShareConfig {

    /**
     * The public base URL of share pages: {@code share-url} is {@code <base-url>/v/<share-id>}. A CDN or the ingress
     * host in production; the gateway locally.
     */
    @WithDefault("http://127.0.0.1:8080")
    String baseUrl();

    /** How long a video and its link live when neither the template nor the vendor says. */
    @WithDefault("90")
    int defaultRetentionDays();

    /** How often the retention sweep deletes the objects of videos past their retention. */
    @WithDefault("10m")
    Duration sweepEvery();

    /** How long after start the first sweep runs. */
    @WithDefault("1m")
    Duration sweepDelay();

    /** Whether this process runs the retention sweep (the API role does; render workers do not). */
    @WithDefault("true")
    boolean sweepEnabled();

    /** Videos the sweep expires per transaction. */
    @WithDefault("100")
    int sweepBatch();
}
