package io.pmedia.engagement.config;

import java.nio.file.Path;
import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** engagement-service's settings (docs/configuration.md, docs/sharing.md, docs/privacy.md). */
@ConfigMapping(prefix = "pmedia.engagement")
public interface EngagementConfig {

    /** The public base URL of share pages, for absolute links (Open Graph, CSV export). */
    @WithDefault("http://127.0.0.1:8080")
    String baseUrl();

    /** How long raw viewer events and page-view sessions are kept; rollups are kept as long as their videos. */
    @WithDefault("30d")
    Duration rawRetention();

    /** How long a presigned media redirect stays valid (its own cache lifetime is shorter). */
    @WithDefault("15m")
    Duration mediaUrlTtl();

    @WithDefault("ffmpeg")
    String ffmpeg();

    /**
     * How long {@code /email.gif} waits for a GIF being made before it answers with the poster instead (an email
     * client's image proxy gives up after a few seconds; the GIF is there for the next one).
     */
    @WithDefault("5s")
    Duration emailGifWait();

    Path workDir();

    Beacons beacons();

    /** Beacons per share page and source address, on each replica (the gateway also limits per address). */
    interface Beacons {

        @WithDefault("30")
        int burst();

        @WithDefault("2")
        double perSecond();
    }
}
