package io.pmedia.media.render.stream;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import io.pmedia.media.template.ResolvedVideo;

/**
 * The port through which the API role opens a realtime request's stream at its acceptance, before any worker has the
 * request: the playlist naming the segments of a cached opening, when the video opens with one. The worker role's
 * chunk cache keeps those openings and implements this; the API role sees only the port, never the worker.
 */
public interface StreamOpenings {

    /**
     * An EVENT playlist naming the segments of {@code video}'s cached opening for that vendor and template version,
     * each by {@code url} of its object key; empty when the video does not open with static chunks, its sound is
     * the request's, or no opening is kept yet. The worker's playlist later continues it.
     */
    Optional<byte[]> openingPlaylist(UUID clientId, UUID templateId, int version, ResolvedVideo video,
            Function<String, String> url);
}
