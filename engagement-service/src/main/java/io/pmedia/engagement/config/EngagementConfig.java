package io.pmedia.engagement.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

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

    /**
     * How long a page's view token is good for (docs/sharing.md, "What counts"): a beacon sent later is not counted.
     * At most a day (a token's key is its day's, and the day before's is kept).
     */
    @WithDefault("4h")
    Duration viewTokenTtl();

    /**
     * Mixed into the day's view-token key beside the day's random salt, so that a reader of the database alone
     * cannot make tokens; empty: the salt alone.
     */
    Optional<String> viewTokenSecret();

    /** Page views of a video from one address within this long of the visit's first are one view (a repeat). */
    @WithDefault("30m")
    Duration repeatWindow();

    /** At most this many {@code cta.clicked} milestones (webhooks) per video and clock hour; clicks still count. */
    @WithDefault("10")
    int ctaWebhooksPerHour();

    /**
     * At most this many claims of a render on view hold a database connection at once, on each replica
     * (docs/sharing.md, "Render on first view"): a claim's transaction holds its connection across the write of the
     * link's opening to the store, so a slow store must not take the whole pool from the pages' reads. An open beyond
     * it answers without claiming, and the link's next open (its player's read of the stream, its page's state)
     * claims. Keep it below the pool's size ({@code PMEDIA_ENGAGEMENT_DB_POOL}, 16).
     */
    @WithDefault("8")
    int claimsInFlight();

    Beacons beacons();

    /** Beacons per share page and source address, on each replica (the gateway also limits per address). */
    interface Beacons {

        @WithDefault("30")
        int burst();

        @WithDefault("2")
        double perSecond();
    }
}
