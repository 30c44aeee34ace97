package io.pmedia.media.render.stream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

/**
 * Publishes a render's HLS stream while FFmpeg writes it (docs/media.md, "Progressive delivery"): every
 * {@value #EVERY_MILLIS} ms, each segment FFmpeg has finished (listed in its playlist) is stored under the request's
 * own prefix, and the playlist is stored again with each segment named by its presigned URL, so that a player needs
 * no credentials and can fetch nothing else. While the render runs the playlist is an EVENT playlist; {@link #finish()}
 * makes it a complete VOD playlist. A store that is down during the render delays the stream, not the render.
 */
public final class StreamPublisher implements AutoCloseable {

    /** The local HLS playlist of a streamed render, and its segments' names. */
    public static final String STREAM_FILE = "stream.m3u8";
    public static final String STREAM_SEGMENTS = "stream-%05d.ts";
    /** The length of a stream segment, and of a chunk of the chunk cache: a keyframe starts each. */
    public static final int STREAM_SEGMENT_SECONDS = 1;

    /** Where the stream goes: the object store, behind a seam so that it can be tested alone. */
    public interface Sink {
        void put(String key, Path file, String contentType);

        void put(String key, byte[] content, String contentType);

        /** A URL a player may fetch {@code key} with. */
        String url(String key);

        /** What is stored under {@code key}; empty when nothing is (or the store cannot say). */
        default Optional<byte[]> get(String key) {
            return Optional.empty();
        }
    }

    /** The playlist's name under the request's stream prefix. */
    public static final String PLAYLIST = "index.m3u8";
    /** The playlist's content type. */
    public static final String PLAYLIST_TYPE = "application/vnd.apple.mpegurl";
    static final long EVERY_MILLIS = 20;
    private static final Pattern SEGMENT = Pattern.compile("stream-[0-9]{5}\\.ts");
    private static final Logger LOG = Logger.getLogger(StreamPublisher.class);
    private static final ScheduledExecutorService TIMER = Executors.newScheduledThreadPool(1, runnable -> {
        Thread thread = new Thread(runnable, "stream-publisher");
        thread.setDaemon(true);
        return thread;
    });

    private final Sink sink;
    private final Path playlist;
    private final String prefix;
    private final Set<String> stored = new HashSet<>();
    /** The playlist FFmpeg wrote as of the last pass that went through (and whether it was the last). */
    private String handled;
    /** Segments of the published playlist; null until the acceptance's playlist has been read. */
    private Integer publishedSegments;
    /** The URLs of the segments the acceptance's playlist named, in order (the cached opening's, kept elsewhere). */
    private List<String> acceptedUrls = List.of();
    private ScheduledFuture<?> ticks;

    /**
     * @param playlist the playlist FFmpeg writes, its segments beside it
     * @param prefix the object key prefix of the stream (in the vendor's namespace), ending with {@code /}
     */
    public StreamPublisher(Sink sink, Path playlist, String prefix) {
        this.sink = sink;
        this.playlist = playlist;
        this.prefix = prefix;
    }

    /**
     * The playlist of a stream before its first segment: an EVENT playlist (RFC 8216 allows one without segments)
     * that a player loads and reloads until segments are named, where a missing playlist would be fatal to it.
     */
    public static byte[] emptyPlaylist() {
        return ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:" + STREAM_SEGMENT_SECONDS
                + "\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Starts publishing what FFmpeg writes. A playlist the acceptance already wrote with the cached opening's segments
     * is continued: it is replaced only once this render's playlist names more segments (an EVENT playlist only
     * grows), and the segments it named keep their URLs.
     */
    public synchronized StreamPublisher start() {
        // the first pass, on the publisher's thread, reads the playlist the acceptance may have written: the render
        // starts without waiting for the store
        ticks = TIMER.scheduleWithFixedDelay(() -> {
            try {
                publish(false);
            } catch (RuntimeException e) {
                LOG.debugf("stream %s not published yet: %s", prefix, e.getMessage());
            }
        }, 0, EVERY_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * The segment URLs of the playlist written at acceptance (none when there is none, or the store cannot say): a
     * player that loaded it must find the same URL at the same place of every later playlist, or it stops (hls.js:
     * "media sequence mismatch", a fatal levelParsingError).
     */
    private List<String> acceptedUrls() {
        try {
            return sink.get(prefix + PLAYLIST).map(StreamPublisher::urls).orElse(List.of());
        } catch (RuntimeException e) {
            LOG.debugf("stream %s: the playlist written at acceptance cannot be read (%s)", prefix, e.getMessage());
            return List.of();
        }
    }

    /**
     * Publishes the rest and the final VOD playlist; after FFmpeg has finished.
     *
     * @throws RuntimeException when the store cannot take it (the caller retries)
     */
    public void finish() {
        close();
        publish(true);
    }

    @Override
    public synchronized void close() {
        if (ticks != null) {
            ticks.cancel(false);
        }
    }

    /** The segment URLs a stored playlist names, in order. */
    public static List<String> urls(byte[] playlist) {
        return new String(playlist, StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
    }

    /** The key of the playlist a player starts from. */
    public String playlistKey() {
        return prefix + PLAYLIST;
    }

    /** A playlist FFmpeg wrote with its segments named by URLs: its text and how many segments it names. */
    public record Named(String text, int segments) {
    }

    /**
     * The playlist {@code written} (FFmpeg's lines) with each of its segments named by {@code url} of the segment's
     * file name, in order; with {@code last}, the complete VOD playlist, else an EVENT playlist without an end.
     */
    public static Named named(List<String> written, Function<String, String> url, boolean last) {
        List<String> out = new ArrayList<>();
        int segments = 0;
        for (String line : written) {
            if (line.isBlank() || line.startsWith("#")) {
                if (last && line.equals("#EXT-X-PLAYLIST-TYPE:EVENT")) {
                    out.add("#EXT-X-PLAYLIST-TYPE:VOD");
                } else if (!line.equals("#EXT-X-ENDLIST")) {
                    out.add(line);
                }
                continue;
            }
            String name = line.strip();
            if (isSegment(name)) {
                out.add(url.apply(name));
                segments++;
            }
        }
        if (last) {
            out.add("#EXT-X-ENDLIST");
        }
        return new Named(String.join("\n", out) + "\n", segments);
    }

    /** Whether {@code name} is the file name of a segment FFmpeg writes ({@code stream-00000.ts}). */
    public static boolean isSegment(String name) {
        return SEGMENT.matcher(name).matches();
    }

    synchronized void publish(boolean last) {
        if (publishedSegments == null) {
            acceptedUrls = acceptedUrls();
            publishedSegments = acceptedUrls.size();
        }
        if (!Files.isRegularFile(playlist)) {
            if (last) {
                throw new IllegalStateException("ffmpeg wrote no stream playlist");
            }
            return;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(playlist, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return;
        }
        // a pass over a playlist FFmpeg has not changed since the last one does nothing (no segment to store, no
        // URL to presign: passes come every EVERY_MILLIS, segments about every second)
        String written = String.join("\n", lines) + last;
        if (written.equals(handled)) {
            return;
        }
        Named named = named(lines, name -> {
            // a segment the acceptance's playlist named keeps its URL there (the cached opening's segment, the same
            // remux of the same piece): this render's copy is neither stored nor named
            int index = Integer.parseInt(name.substring("stream-".length(), name.length() - ".ts".length()));
            if (index < acceptedUrls.size()) {
                return acceptedUrls.get(index);
            }
            if (stored.add(name)) {
                try {
                    sink.put(prefix + name, playlist.resolveSibling(name), "video/mp2t");
                } catch (RuntimeException e) {
                    stored.remove(name);
                    throw e;
                }
            }
            return sink.url(prefix + name);
        }, last);
        // an EVENT playlist only grows: a cached opening already published is replaced once this render's playlist
        // names more segments than it
        if (last || named.segments() > publishedSegments) {
            sink.put(prefix + PLAYLIST, named.text().getBytes(StandardCharsets.UTF_8), PLAYLIST_TYPE);
            publishedSegments = named.segments();
        }
        handled = written;
    }
}
