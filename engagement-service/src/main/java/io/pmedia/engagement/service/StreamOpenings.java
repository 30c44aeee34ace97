package io.pmedia.engagement.service;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;

import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.events.SharedVideo;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;

/**
 * The stream of a link rendered on view opens with its template version's cached opening (docs/sharing.md, "Render
 * on first view"): when its render is claimed, before the claim travels to the render's owner and a worker, the
 * link's playlist is written naming the segments media-service's chunk cache kept as that version's opening
 * ({@link VendorNamespace#templateOpening}), so the page plays them at once. The render's publisher continues that
 * playlist (it keeps the segment URLs it finds there). Batch rows only (campaigns' too). Best effort: a template
 * without a kept opening (its first seconds are personal, or nothing of it was rendered yet), a store that cannot
 * answer or a key outside the vendor's namespace leave the stream to the render.
 * <p>
 * The opening is read {@linkplain #playlist before} the claim's transaction and kept here per template version (a
 * version's opening never changes once kept; one not kept yet is asked for again after {@link #ABSENT_FOR}), so a
 * burst of first opens costs the store one read per version and each claim one write, and a claim holds its database
 * connection for that write only.
 */
@ApplicationScoped
public class StreamOpenings {

    private static final Logger LOG = Logger.getLogger(StreamOpenings.class);
    public static final String PLAYLIST_TYPE = "application/vnd.apple.mpegurl";
    /** A playlist is read up to this many bytes (an opening names a few segments; a 120 s stream, 120). */
    public static final int PLAYLIST_LIMIT = 1_000_000;
    /**
     * How long a claim waits for the store (a worker thread's turn included): a store that does not answer costs the
     * page this, then nothing. 2 s: at 1 s a loaded 2-core machine (five renders, a browser) missed it now and then.
     */
    public static final Duration BUDGET = Duration.ofSeconds(2);
    /** How long a version's kept opening is reused: well inside the presigned URLs' life (a day). */
    static final Duration KEPT_FOR = Duration.ofMinutes(10);
    /** How long "no opening kept" stands before the store is asked again (the first render keeps one). */
    static final Duration ABSENT_FOR = Duration.ofSeconds(5);

    private record Version(UUID clientId, UUID templateId, int version) {
    }

    private final ObjectStore store;
    /** Per template version: the opening as a link's playlist (the segments' URLs), or empty when none is kept. */
    private final Cache<Version, Optional<byte[]>> kept;

    @Inject
    public StreamOpenings(ObjectStore store) {
        this(store, Ticker.systemTicker());
    }

    StreamOpenings(ObjectStore store, Ticker ticker) {
        this.store = store;
        this.kept = Caffeine.newBuilder().maximumSize(10_000).ticker(ticker)
                .expireAfter(Expiry.<Version, Optional<byte[]>>creating(
                        (version, playlist) -> playlist.isPresent() ? KEPT_FOR : ABSENT_FOR))
                .build();
    }

    /**
     * The playlist {@code video}'s stream opens with, if it has one: a batch row's whose template version has a kept
     * opening of its vendor's own objects. Blocking (one store read per version and {@link #KEPT_FOR}); never throws.
     */
    public Optional<byte[]> playlist(SharedVideoRow video) {
        // a batch row's input is its fields: the version's opening is its own. A realtime request may carry cohorts and
        // frame-segments, and media-service writes its stream with its own opening when it admits the render.
        if (video.streamKey == null || video.templateId == null || video.templateVersion == null
                || !SharedVideo.Source.batch.name().equals(video.source)) {
            return Optional.empty();
        }
        Version version = new Version(video.clientId, video.templateId, video.templateVersion);
        try {
            return kept.get(version, this::read);
        } catch (RuntimeException e) {
            // not kept: the next claim asks the store again
            LOG.debugf("the cached opening of template %s is not read now: %s", video.templateId, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Writes {@code playlist} as {@code video}'s stream: called by the claim that won the link's render (one per link,
     * by the database), before the render is asked for. Blocking; never throws: false when it was not written.
     */
    public boolean write(SharedVideoRow video, byte[] playlist) {
        try {
            store.put(video.streamKey, playlist, PLAYLIST_TYPE);
            return true;
        } catch (RuntimeException e) {
            LOG.debugf("the stream of %s does not open with the cached opening: %s", video.shareId, e.getMessage());
            return false;
        }
    }

    private Optional<byte[]> read(Version version) {
        Optional<String> opening = store.text(
                VendorNamespace.templateOpening(version.clientId(), version.templateId(), version.version()),
                PLAYLIST_LIMIT);
        if (opening.isEmpty()) {
            return Optional.empty();
        }
        List<String> lines = new ArrayList<>();
        int segments = 0;
        for (String line : opening.get().lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                lines.add(line);
            } else if (VendorNamespace.owns(version.clientId(), line.strip())) {
                lines.add(store.publicUrl(line.strip()));
                segments++;
            } else {
                LOG.warnf("the cached opening of template %s names a key outside its vendor's namespace: unused",
                        version.templateId());
                return Optional.empty();
            }
        }
        return segments == 0
                ? Optional.empty()
                : Optional.of((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
