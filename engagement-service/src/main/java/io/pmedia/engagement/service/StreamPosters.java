package io.pmedia.engagement.service;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/**
 * The poster of a video rendered on view while its render runs (docs/sharing.md, "Render on first view"): the frame a
 * rendered video's thumbnail is cut at (the middle of its first stream segment), cut from the first segment the
 * link's stream names. That segment is the template's cached opening when the template opens with one (named from the
 * link's first open, so the poster is the template's own at once), or the viewer's first personal second. Made once per link with FFmpeg, stored
 * beside the stream (in the owner's namespace, so the link's retention deletes it), one at a time per replica (an ask
 * while another is being cut answers nothing, and the page its platform picture).
 */
@ApplicationScoped
public class StreamPosters {

    /** The poster's name, beside the stream's playlist. */
    static final String POSTER = "poster.jpg";
    /** Where a rendered video's thumbnail is cut: the middle of the (half-second) first segment. */
    static final String AT_SECONDS = "0.25";
    private static final Duration TIME_LIMIT = Duration.ofSeconds(10);
    private static final Logger LOG = Logger.getLogger(StreamPosters.class);

    private final ObjectStore store;
    private final EngagementConfig config;
    private final Semaphore making = new Semaphore(1);

    public StreamPosters(ObjectStore store, EngagementConfig config) {
        this.store = store;
        this.config = config;
    }

    /**
     * The key of the poster of {@code video}'s stream, made now if its first segment is stored; empty when the video
     * has no stream or its render has not written a segment yet.
     */
    public Uni<Optional<String>> of(SharedVideoRow video) {
        if (video.streamKey == null || video.streamKey.lastIndexOf('/') < 0) {
            return Uni.createFrom().item(Optional.empty());
        }
        String prefix = video.streamKey.substring(0, video.streamKey.lastIndexOf('/') + 1);
        return Blocking.offload(() -> storedOrMade(video, prefix));
    }

    private Optional<String> storedOrMade(SharedVideoRow video, String prefix) {
        String poster = prefix + POSTER;
        if (store.size(poster).isPresent()) {
            return Optional.of(poster);
        }
        Optional<String> first = firstSegment(video);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        // an email's image waits for nobody's turn: another making in progress answers the platform's picture
        return Ffmpeg.inTurn(making, Duration.ZERO, Optional::empty, config.workDir(), "poster", dir -> {
            Path jpeg = dir.resolve(POSTER);
            String segment = store.publicUrl(first.get(), Duration.ofMinutes(5));
            // decoded from the segment's start (an input seek into half a second of H.264 may land before its
            // references), then the frame at the thumbnail's time
            Ffmpeg.run(config.ffmpeg(), dir, List.of("-i", segment, "-ss", AT_SECONDS, "-frames:v", "1", "-q:v",
                    "3", jpeg.toString()), jpeg, TIME_LIMIT, "the poster of a stream");
            store.put(poster, jpeg, "image/jpeg");
            LOG.debugf("made the poster of %s from its stream", video.shareId);
            return Optional.of(poster);
        });
    }

    /**
     * The key of the first segment {@code video}'s stream names: the template's cached opening (named at the claim,
     * or by the render) or the render's own first segment; only a key of the vendor's own in this store. Empty
     * before the playlist names one.
     */
    private Optional<String> firstSegment(SharedVideoRow video) {
        return store.text(video.streamKey, StreamOpenings.PLAYLIST_LIMIT).flatMap(text -> text.lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).findFirst()
                .flatMap(url -> store.ownedKey(video.clientId, url)));
    }
}
