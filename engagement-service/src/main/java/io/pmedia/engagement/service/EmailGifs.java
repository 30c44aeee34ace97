package io.pmedia.engagement.service;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import javax.imageio.ImageIO;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The email GIF of a video (docs/sharing.md): its first seconds as a small animated GIF with a play badge, for
 * email bodies that cannot play video. Made with FFmpeg the first time it is asked for (one at a time per replica;
 * concurrent asks for one video wait for the same making), stored beside the video in the vendor's namespace and
 * served like the other media from then on.
 */
@ApplicationScoped
public class EmailGifs {

    private static final Logger LOG = Logger.getLogger(EmailGifs.class);
    static final int SECONDS = 3;
    static final int WIDTH = 320;
    private static final Duration TIME_LIMIT = Duration.ofSeconds(60);

    private final ObjectStore store;
    private final VideoStore videos;
    private final EngagementConfig config;
    private final Vertx vertx;
    private final Semaphore making = new Semaphore(1);
    private final Map<String, Uni<String>> inFlight = new ConcurrentHashMap<>();

    public EmailGifs(ObjectStore store, VideoStore videos, EngagementConfig config, Vertx vertx) {
        this.vertx = vertx;
        this.store = store;
        this.videos = videos;
        this.config = config;
    }

    /**
     * The object key of the video's GIF, made now when it has none yet. The object in the store is the source of
     * truth: a row (or a cached copy of it) that does not know of a GIF yet is checked against the store before one
     * is made or a making in flight is waited for, so the GIF answers as soon as it is stored, not once the row (and
     * the page cache) have caught up; the row learns of a GIF found that way in the background.
     */
    public Uni<String> of(SharedVideoRow video) {
        if (video.emailGifKey != null) {
            return Uni.createFrom().item(video.emailGifKey);
        }
        if (video.videoKey == null) {
            return Uni.createFrom().failure(Pages.notFound());
        }
        String key = keyOf(video);
        return Blocking.offload(() -> store.size(key).isPresent()).flatMap(stored -> {
            if (stored) {
                video.emailGifKey = key;
                if (!inFlight.containsKey(video.shareId)) {
                    // programmatic: background work on its own context, not a CDI call
                    BackgroundWork.run(vertx, "noting the stored email GIF of " + video.shareId,
                            () -> Panache.withTransaction(() -> videos.setEmailGif(video.shareId, key)));
                }
                return Uni.createFrom().item(key);
            }
            return inFlight.computeIfAbsent(video.shareId, id -> Blocking.offload(() -> storedOrMade(video))
                    // programmatic: the row is written after the blocking make, in a Uni shared by every ask
                    .call(made -> Panache.withTransaction(() -> videos.setEmailGif(video.shareId, made)))
                    .invoke(made -> video.emailGifKey = made)
                    .eventually(() -> inFlight.remove(id))
                    .memoize().indefinitely());
        });
    }

    private String storedOrMade(SharedVideoRow video) {
        String key = keyOf(video);
        return store.size(key).isPresent() ? key : make(video);
    }

    /** Beside the video, in the vendor's namespace. */
    private static String keyOf(SharedVideoRow video) {
        return video.videoKey.substring(0, video.videoKey.lastIndexOf('/') + 1) + "email.gif";
    }

    private String make(SharedVideoRow video) {
        String key = keyOf(video);
        return Ffmpeg.inTurn(making, TIME_LIMIT, () -> {
            throw busy();
        }, config.workDir(), "gif", dir -> {
            Path badge = dir.resolve("badge.png");
            ImageIO.write(badge(), "png", badge.toFile());
            Path gif = dir.resolve("email.gif");
            String source = store.publicUrl(video.videoKey, Duration.ofMinutes(5));
            Ffmpeg.run(config.ffmpeg(), dir, List.of("-t", Integer.toString(SECONDS), "-i", source, "-i",
                    badge.toString(), "-filter_complex",
                    "[0:v]fps=10,scale=" + WIDTH + ":-2:flags=lanczos[v];[v][1:v]overlay=(W-w)/2:(H-h)/2,"
                            + "split[a][b];[a]palettegen=max_colors=128[p];[b][p]paletteuse=dither=bayer",
                    "-loop", "0", gif.toString()), gif, TIME_LIMIT, "the email GIF");
            store.put(key, gif, "image/gif");
            LOG.infof("made the email GIF of %s (%d bytes)", video.shareId, Files.size(gif));
            return key;
        });
    }

    /** The answer while no GIF can be made or shown yet. */
    public static ApiException busy() {
        return new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the email image is being made, retry later",
                Duration.ofSeconds(5));
    }

    public static boolean isBusy(Throwable failure) {
        return failure instanceof ApiException e && e.code() == ErrorCode.SERVICE_UNAVAILABLE;
    }

    /**
     * Makes the GIF of a realtime video that was just shared, in the background, so that the first email client that
     * asks finds it (batch rows, which may be a million, are made on their first ask). A failure is logged and leaves
     * the making to the first ask.
     */
    public void ahead(String shareId) {
        // programmatic: background work on its own context, not a CDI call
        BackgroundWork.run(vertx, "making the email GIF of " + shareId + " ahead",
                () -> Panache.withSession(() -> videos.byShare(shareId)).flatMap(video -> video == null
                        || video.emailGifKey != null || video.videoKey == null || !"ACTIVE".equals(video.state)
                                ? Uni.createFrom().nullItem()
                                : of(video)));
    }

    /** A play badge: a white triangle in a dark translucent circle, 72 px. */
    static BufferedImage badge() {
        int size = 72;
        BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(new Color(0, 0, 0, 150));
        g.fillOval(2, 2, size - 4, size - 4);
        g.setColor(Color.WHITE);
        g.setStroke(new BasicStroke(3));
        g.drawOval(2, 2, size - 4, size - 4);
        g.fillPolygon(new Polygon(new int[]{28, 28, 54}, new int[]{20, 52, 36}, 3));
        g.dispose();
        return image;
    }
}
