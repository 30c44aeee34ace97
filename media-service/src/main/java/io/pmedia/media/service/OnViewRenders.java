package io.pmedia.media.service;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.hibernate.reactive.mutiny.Mutiny;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.RenderMode;
import io.pmedia.events.RenderOnView;
import io.pmedia.events.SharedVideo;
import io.pmedia.media.MediaRequest;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.repository.MediaRequestStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Realtime requests rendered on first view (docs/media.md, "Render on first view"): the claim of a first view (a
 * link's open, from engagement-service, or the owner's status read) and its admission onto the realtime lane. A claim
 * is once per request; a claimed render goes out when fewer than {@link #bound()} renders on view are in flight
 * (admitted, not ended), first claimed first, so that a burst of opens never queues more than that in front of a
 * vendor's realtime request. The others wait, claimed, their page "being prepared"; each claim, each end of one in
 * flight and a timer ({@code on-view.admit-every}) admit more, under one advisory lock across replicas.
 */
@ApplicationScoped
public class OnViewRenders {

    private static final String ADMISSION = "media-on-view-admission";

    private final MediaRequestStore requests;
    private final MediaRequests lives;
    private final ShareLinks shares;
    private final RenderWorkers workers;
    private final MediaConfig.OnView config;

    public OnViewRenders(MediaRequestStore requests, MediaRequests lives, ShareLinks shares, RenderWorkers workers,
            MediaConfig config) {
        this.requests = requests;
        this.lives = lives;
        this.shares = shares;
        this.workers = workers;
        this.config = config.onView();
    }

    /**
     * The first view of an on-view request's share link (engagement-service's {@link RenderOnView} of
     * {@code source} {@code realtime}): its render is claimed once and admitted in this transaction when there is
     * room. A repeated or forged request (another client's, another link's, one already claimed or rendered) renders
     * nothing; a viewer's retry of a failed render is answered with its page marked failed again, since a realtime
     * request's {@code FAILURE} is final (interface 3.2). True when this call claimed the render.
     */
    @WithTransaction
    @WithSpan
    public Uni<Boolean> viewed(RenderOnView view) {
        if (view.source() != SharedVideo.Source.realtime || view.serviceRequestId() == null
                || view.clientId() == null || view.shareId() == null) {
            return Uni.createFrom().item(false);
        }
        return claim(view.serviceRequestId(), view.clientId(), view.shareId()).flatMap(claimed -> {
            if (claimed != null) {
                return Uni.createFrom().item(true);
            }
            // any attempt: a render the owner's status read claimed, which failed before anyone opened the link, is
            // asked for by the viewer's first retry with attempt 1 (engagement never claimed it)
            return requests.findOwned(view.clientId(), view.serviceRequestId()).flatMap(request -> request != null
                    && view.shareId().equals(request.shareId) && request.render == RenderMode.ON_VIEW
                    && request.status == MediaStatus.FAILURE
                            ? shares.rendered(request).replaceWith(false)
                            : Uni.createFrom().item(false));
        });
    }

    /**
     * Claims the render of the client's on-view request ({@code shareId}: the link that was opened; null for the
     * owner's status read) and admits what there is room for, in the caller's transaction: the claimed request (its
     * {@code renderAdmittedAt} says whether its job is out), or null when there was nothing to claim.
     */
    Uni<MediaRequest> claim(UUID id, UUID clientId, String shareId) {
        return requests.claimView(id, clientId, shareId).flatMap(claimed -> claimed == 0
                ? Uni.createFrom().nullItem()
                : requests.lock(id)
                        // the status read holds the row as it was before the UPDATE in this session
                        .call(request -> Panache.getSession().flatMap(session -> session.refresh(request)))
                        .call(this::admit));
    }

    /** The timer's round: admits what there is room for; how many went out. */
    @WithTransaction
    public Uni<Integer> admitWaiting() {
        return admit().map(List::size);
    }

    /**
     * In the caller's transaction: the claimed renders that fit under the bound, first claimed first, marked admitted
     * and their jobs published (through the outbox, with their stream playlists).
     */
    Uni<List<MediaRequest>> admit() {
        // the caller's claim or end of a render must count (a native query does not flush on its own here)
        return Panache.getSession().flatMap(Mutiny.Session::flush)
                .chain(() -> CreateLock.take(ADMISSION))
                .chain(requests::viewsInFlight)
                .flatMap(inFlight -> {
                    int room = bound() - inFlight.intValue();
                    return room <= 0 ? Uni.createFrom().item(List.<MediaRequest>of()) : requests.viewsWaiting(room);
                })
                .call(admitted -> Multi.createFrom().iterable(admitted).onItem()
                        .transformToUniAndConcatenate(request -> {
                            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
                            request.renderAdmittedAt = now;
                            request.updatedAt = now; // the lost-render sweep counts from here
                            return lives.submitClaimed(request);
                        }).collect().asList());
    }

    /**
     * Renders on view that may be in flight at once: {@code on-view.renders-per-worker} times the render workers (at
     * least one), fixed ({@code on-view.workers}) or as the broker describes their group.
     */
    public int bound() {
        int seen = config.workers().isPresent() ? config.workers().getAsInt() : workers.workers();
        return Math.max(1, seen) * Math.max(1, config.rendersPerWorker());
    }
}
