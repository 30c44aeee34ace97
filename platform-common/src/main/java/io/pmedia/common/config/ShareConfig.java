package io.pmedia.common.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Share links (docs/sharing.md) where videos end: media-service for realtime requests, batch-service for rendered
 * rows. Where their pages are served, how long a video is kept, and the retention sweep that deletes what has ended.
 */
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

    /** Whether this process runs the retention sweep (media's API role does; its render workers do not). */
    @WithDefault("true")
    boolean sweepEnabled();

    /**
     * What the sweep expires per transaction: media-service's videos (100 by default), batch-service's tasks, each
     * with all its rows' objects (batch-service sets 10).
     */
    @WithDefault("100")
    int sweepBatch();
}
