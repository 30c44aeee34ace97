package io.pmedia.engagement.service;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.concurrent.Contexts;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Render on first view (docs/sharing.md): the first open of a link whose video is rendered on view (its page, embed,
 * video, poster or email GIF) asks the video's owner to render it, once: the claim is a conditional update of the
 * link's row and the request goes through the outbox in the same transaction, so fifty opens at the same moment on any
 * number of replicas are one request, and a broker that is away delays the request, never the page. A viewer's retry
 * after a failed render claims it again, up to {@value #MAX_ATTEMPTS} claims in all. At most
 * {@link EngagementConfig#claimsInFlight()} claims run at once: an open beyond them answers without claiming and
 * leaves the claim to the link's next open, so a burst of first opens never takes the database's pool from the pages.
 */
@ApplicationScoped
public class RenderClaims {

    static final int MAX_ATTEMPTS = 3;
    private static final Logger LOG = Logger.getLogger(RenderClaims.class);

    private final VideoStore videos;
    private final EventPublisher publisher;
    private final MeterRegistry registry;
    private final StreamOpenings openings;
    private final Pages pages;
    private final Vertx vertx;
    /** The claims that may hold a database connection at once. */
    private final Semaphore inFlight;

    public RenderClaims(VideoStore videos, EventPublisher publisher, MeterRegistry registry,
            StreamOpenings openings, Pages pages, Vertx vertx, EngagementConfig config) {
        this.inFlight = new Semaphore(Math.max(1, config.claimsInFlight()));
        this.openings = openings;
        this.pages = pages;
        this.vertx = vertx;
        this.videos = videos;
        this.publisher = publisher;
        this.registry = registry;
    }

    /**
     * Asks for the render of {@code video} if it awaits one and nobody asked yet ({@code retry}: after a failed render);
     * true when this call asked. A claim that cannot be made now (database away) is logged and left to the next open:
     * the page answers regardless.
     */
    public Uni<Boolean> claim(SharedVideoRow video, boolean retry) {
        return ask(video, retry).map(Claim::asked);
    }

    /**
     * The open of a page: {@link #claim claims} the render like any open, and answers the playlist this open wrote
     * into the link's stream (the template version's cached opening) when its claim won and the write was stored in
     * time, else empty. The page hands it to its player, which then needs no first read of the stream: it is exactly
     * what the store holds, and what the render's publisher continues (an earlier open's playlist may name the same
     * segments by other presigned URLs, which a player reloading the stream would take for a changed playlist).
     */
    public Uni<Optional<String>> open(SharedVideoRow video) {
        return ask(video, false).map(claim -> claim.opening().map(bytes -> new String(bytes, StandardCharsets.UTF_8)));
    }

    /** The places of the claims that may run at once (for tests: a bean's field is not read through its proxy). */
    Semaphore inFlight() {
        return inFlight;
    }

    /** What a claim did: whether it asked for the render, and the playlist it wrote into the link's stream. */
    private record Claim(boolean asked, Optional<byte[]> opening) {

        static final Claim NONE = new Claim(false, Optional.empty());
    }

    private Uni<Claim> ask(SharedVideoRow video, boolean retry) {
        if (video == null || !video.awaitsRender() || !retry && video.renderRequestedAt != null
                || retry && !video.renderFailed()) {
            return Uni.createFrom().item(Claim.NONE);
        }
        // the page plays the template's cached opening while the claim travels (a retry's stream has its playlist from
        // the first attempt); read before the transaction, so the claim holds its connection for one write at most
        Uni<Optional<byte[]>> opening = retry
                ? Uni.createFrom().item(Optional.empty())
                : offloaded("read", video, () -> openings.playlist(video), Optional.empty());
        // to its end: a viewer who closed the page at once has still opened it, and the claim is theirs
        return opening.flatMap(playlist -> BackgroundWork.toTheEnd(vertx, () -> inPlace(retry,
                () -> transaction(video, retry, playlist)
                        // decided, by this open or another: the link's next opens need not ask again
                        .invoke(claim -> pages.claimed(video.shareId)))))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("the render of %s cannot be asked for now (the next open asks again): %s",
                            video.shareId, failure.getMessage());
                    return Claim.NONE;
                });
    }

    /**
     * {@code claim} in one of the places of the claims that run at once, given back when it ends; not made
     * ({@link Claim#NONE}) when every place is taken, and the link's next open claims. A viewer's retry (their
     * button, rare) is never turned away.
     */
    private Uni<Claim> inPlace(boolean retry, Supplier<Uni<Claim>> claim) {
        boolean held = inFlight.tryAcquire();
        if (!held && !retry) {
            registry.counter("pmedia.engagement.render.claims.deferred").increment();
            return Uni.createFrom().item(Claim.NONE);
        }
        return Uni.createFrom().<Claim>deferred(claim::get).eventually(() -> {
            if (held) {
                inFlight.release();
            }
        });
    }

    /** The claim's transaction: the conditional update, the opening's write by the claim that won, the request. */
    private Uni<Claim> transaction(SharedVideoRow video, boolean retry, Optional<byte[]> playlist) {
        // programmatic: only a page whose video awaits its render opens a transaction, not every page open
        return Panache.withTransaction(() -> videos.claimRender(video.shareId, retry, MAX_ATTEMPTS)
                .flatMap(attempt -> {
                    if (attempt == null) {
                        return Uni.createFrom().item(Claim.NONE);
                    }
                    registry.counter("pmedia.engagement.render.claims", "attempt", retry ? "retry" : "first")
                            .increment();
                    // written by the claim that won only, and before the render is asked for: its worker continues it
                    Uni<Boolean> opened = playlist.isEmpty()
                            ? Uni.createFrom().item(false)
                            : offloaded("write", video, () -> openings.write(video, playlist.get()), false);
                    return opened.call(ignored -> publisher.publish(new RenderOnView(video.clientId, video.shareId,
                            SharedVideo.Source.valueOf(video.source), video.serviceRequestId, video.taskId,
                            video.rowNo, attempt, Instant.now())))
                            .map(written -> new Claim(true, written ? playlist : Optional.empty()));
                }));
    }

    /**
     * {@code work} (the opening's {@code step}) on a worker thread, given up after {@link StreamOpenings#BUDGET} for
     * {@code otherwise}, which is counted ({@code pmedia.engagement.render.openings.late}) and logged: the page then
     * says "being prepared" without the opening. The caller's context is resumed after it (a timeout's item comes on
     * the timer's thread).
     */
    private <T> Uni<T> offloaded(String step, SharedVideoRow video, Supplier<T> work, T otherwise) {
        return Contexts.resumeOnCurrent(Blocking.offload(work).ifNoItem().after(StreamOpenings.BUDGET)
                .recoverWithItem(() -> {
                    registry.counter("pmedia.engagement.render.openings.late", "step", step).increment();
                    LOG.warnf("the %s of the cached opening for %s took over %d ms: its page opens without it", step,
                            video.shareId, StreamOpenings.BUDGET.toMillis());
                    return otherwise;
                }));
    }
}
