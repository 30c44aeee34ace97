package io.pmedia.engagement.service;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.client.ClientRegistryClient;
import io.pmedia.common.client.SharingSettings;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.SingleFlightCache;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.net.Origins;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * What a share page shows and what it may load (docs/sharing.md): the video of a live share id (an unknown, revoked
 * or expired one is the same 404), its page with the template's branding or the vendor's, and the page's
 * Content-Security-Policy: scripts and styles of its own only, media from the platform's store, framed by nobody
 * (the page) or by the vendor's allowed origins (the embed).
 */
@ApplicationScoped
public class Pages {

    private static final Logger LOG = Logger.getLogger(Pages.class);
    /** A share id as media-service and batch-service mint them (URL-safe base64 of at least 16 bytes). */
    private static final Pattern SHARE_ID = Pattern.compile("[A-Za-z0-9_-]{22,64}");
    private static final Duration CACHED = Duration.ofSeconds(5);

    private final VideoStore videos;
    private final EngagementConfig config;
    private final String storeOrigin;
    private final SingleFlightCache<String, Optional<SharedVideoRow>> byShare;
    private final SingleFlightCache<java.util.UUID, Optional<SharingSettings>> vendors;
    private final Vertx vertx;

    public Pages(VideoStore videos, EngagementConfig config, ObjectStore store, ClientRegistryClient registry,
            Vertx vertx) {
        this.videos = videos;
        this.vertx = vertx;
        this.config = config;
        this.storeOrigin = Origins.of(store.publicUrl("x")).orElse("");
        // programmatic: the cache's loader is a function, called by the cache, not through a CDI proxy
        this.byShare = new SingleFlightCache<>(id -> read(id).map(Optional::ofNullable), CACHED, 50_000);
        this.vendors = new SingleFlightCache<>(registry::sharing, Duration.ofMinutes(1), 10_000);
    }

    /** The video whose page plays now, or a null item (unknown, revoked, expired, or not a share id at all). */
    public Uni<SharedVideoRow> live(String shareId) {
        if (shareId == null || !SHARE_ID.matcher(shareId).matches()) {
            return Uni.createFrom().nullItem();
        }
        Instant now = Instant.now();
        return byShare.get(shareId, CACHED).map(found -> found.filter(video -> video.live(now)).orElse(null));
    }

    /**
     * {@link #live} from the database, not the cache: where a video rendered on view stands now (its page's polls, a
     * retry, a bounded wait), which the cache could show as it was up to {@link #CACHED} ago.
     */
    public Uni<SharedVideoRow> liveNow(String shareId) {
        if (shareId == null || !SHARE_ID.matcher(shareId).matches()) {
            return Uni.createFrom().nullItem();
        }
        Instant now = Instant.now();
        // a malformed share id (above) never opens a session
        return read(shareId).map(found -> found != null && found.live(now) ? found : null);
    }

    /** The link's row as the database has it now, or a null item; read to its end (a page's read is short). */
    private Uni<SharedVideoRow> read(String shareId) {
        // programmatic: one read of one row, from the cache's loader or a page's poll
        return BackgroundWork.toTheEnd(vertx, () -> Panache.withSession(() -> videos.byShare(shareId)));
    }

    /**
     * Reads the link into the cache again once a claim of its render on view is decided ({@link RenderClaims}). The
     * row the cache holds was read before the claim, so every later open in its time (a player reloads the stream
     * every second or less) would claim again, each a read of the store and a transaction: under a burst of first
     * opens those held the database's pool until pages answered 503.
     */
    public void claimed(String shareId) {
        BackgroundWork.run(vertx, "reading " + shareId + " after its claim", () -> byShare.refresh(shareId));
    }

    /**
     * {@link #live}, but a video that the cache shows still waiting for its render on view is read again from the
     * database: its render may have ended since the cache read it (up to {@link #CACHED} ago, on this replica or by
     * another's event), and a page, its MP4 or its poster must not answer "being prepared" once its state says ready
     * (the page's script plays the MP4 as soon as {@code /state} says so). A rendered video is the cache's answer.
     */
    public Uni<SharedVideoRow> current(String shareId) {
        Optional<SharedVideoRow> known = liveIfKnown(shareId);
        if (known == null) {
            return live(shareId); // not cached: read from the database now, once
        }
        return known.isPresent() && known.get().awaitsRender()
                ? liveNow(shareId)
                : Uni.createFrom().item(known.orElse(null));
    }

    /**
     * {@link #live}'s answer when it is at hand, without a lookup: the video, or {@code Optional.empty()} for a page
     * that does not play; null when the share id has to be looked up (not cached, or cached too long ago).
     */
    public Optional<SharedVideoRow> liveIfKnown(String shareId) {
        if (shareId == null || !SHARE_ID.matcher(shareId).matches()) {
            return Optional.empty();
        }
        Optional<SharedVideoRow> found = byShare.lastLoaded(shareId, CACHED);
        return found == null ? null : found.filter(video -> video.live(Instant.now()));
    }

    /** The vendor's share settings; its defaults when the registry cannot say right now (the page still plays). */
    public Uni<SharingSettings> vendor(java.util.UUID clientId) {
        return vendors.get(clientId, Duration.ofMinutes(1)).map(found -> found.orElse(SharingSettings.DEFAULTS))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("sharing settings of %s unavailable (%s): defaults", clientId, failure.getMessage());
                    return SharingSettings.DEFAULTS;
                });
    }

    /** The same answer for every share id that does not play: unknown, revoked or expired. */
    public static ApiException notFound() {
        return ApiException.notFound("this video is not available");
    }

    /** The absolute URL of a page path ({@code /v/<id>/poster.jpg}). */
    public String absolute(String path) {
        return config.baseUrl().replaceAll("/+$", "") + path;
    }

    /**
     * The page's Content-Security-Policy. {@code nonce}: the one style block the page writes (its accent colour);
     * {@code frameAncestors}: empty for a page nobody may frame.
     */
    public String contentSecurityPolicy(String nonce, String logoUrl, List<String> frameAncestors) {
        Set<String> images = new LinkedHashSet<>(List.of("'self'"));
        if (!storeOrigin.isEmpty()) {
            images.add(storeOrigin);
        }
        Origins.of(logoUrl).ifPresent(images::add);
        String store = storeOrigin.isEmpty() ? "" : " " + storeOrigin;
        // blob: and the store for the stream of a video rendered on view, played by hls.js (Media Source Extensions)
        return "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-" + nonce + "'; img-src "
                + String.join(" ", images) + "; media-src 'self' blob:" + store + "; connect-src 'self'" + store
                + "; base-uri 'none';"
                + " form-action 'none'; frame-ancestors " + (frameAncestors.isEmpty()
                        ? "'none'"
                        : String.join(" ", frameAncestors));
    }
}
