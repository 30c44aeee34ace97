package io.pmedia.media.service;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.client.ClientRegistryClient;
import io.pmedia.common.client.SharingSettings;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.concurrent.SingleFlightCache;
import io.pmedia.common.config.ShareConfig;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderMode;
import io.pmedia.events.SharePage;
import io.pmedia.events.SharedVideo;
import io.pmedia.media.MediaRequest;
import io.pmedia.media.repository.RequestEventStore;
import io.pmedia.media.repository.ShareStore;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Share links of realtime requests (docs/sharing.md): minted when a request ends {@code SUCCESS} (at acceptance for
 * one rendered on first view), with the page its
 * request fills (title, call to action, branding) and the end of its retention (the template's, else the vendor's,
 * else the platform's); revoked by their owner; expired by the retention sweep, which deletes the video's objects. Each
 * change is a {@link SharedVideo} event in the transaction that makes it, for engagement-service's projection.
 */
@ApplicationScoped
public class ShareLinks {

    private static final Logger LOG = Logger.getLogger(ShareLinks.class);
    /** 18 random bytes: 144 bits, 24 URL-safe characters. */
    private static final int ID_BYTES = 18;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ShareStore shares;
    private final RequestEventStore timeline;
    private final EventPublisher publisher;
    private final ObjectStore store;
    private final ObjectMapper mapper;
    private final ShareConfig config;
    private final SingleFlightCache<UUID, Optional<SharingSettings>> vendors;
    private final MediaEvents events;

    public ShareLinks(ShareStore shares, RequestEventStore timeline, EventPublisher publisher, ObjectStore store,
            ObjectMapper mapper, ShareConfig config, ClientRegistryClient registry, MediaEvents events) {
        this.events = events;
        this.shares = shares;
        this.timeline = timeline;
        this.publisher = publisher;
        this.store = store;
        this.mapper = mapper;
        this.config = config;
        this.vendors = new SingleFlightCache<>(registry::sharing, Duration.ofMinutes(1), 10_000);
    }

    /** A new share id: at least 128 random bits, URL-safe. */
    public static String mint() {
        byte[] bytes = new byte[ID_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** {@code <base-url>/v/<share-id>}, or null without a live link. */
    public String url(MediaRequest request) {
        return request.shareId == null || !SharedVideo.State.ACTIVE.name().equals(request.shareState)
                || request.expiresAt != null && !request.expiresAt.isAfter(Instant.now())
                        ? null
                        : config.baseUrl().replaceAll("/+$", "") + "/v/" + request.shareId;
    }

    /**
     * The vendor's retention for a request that is about to succeed (asked before its transaction: a registry that
     * cannot be reached costs the platform's default, never the result).
     */
    public Uni<Integer> vendorRetentionDays(UUID clientId) {
        return vendors.get(clientId, Duration.ofMinutes(1))
                .map(settings -> settings.map(SharingSettings::retentionDays).orElse(null))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("vendor %s's sharing settings unavailable (%s): the default retention applies",
                            clientId, failure.getMessage());
                    return null;
                });
    }

    /**
     * Gives a request that has just ended {@code SUCCESS} its link, and publishes the page; or an on-view request its
     * link at acceptance, before its video (the page says "being prepared" until {@link #rendered}). In the caller's
     * transaction.
     */
    public Uni<Void> open(MediaRequest request, TemplateDefinition template, RenderInput input,
            Integer vendorRetentionDays) {
        Map<String, String> fields = input == null ? Map.of() : input.fields();
        SharePage page = SharePage.of(mapper.valueToTree(template), fields);
        int days = template.retentionDays() != null
                ? template.retentionDays()
                : vendorRetentionDays != null ? vendorRetentionDays : config.defaultRetentionDays();
        request.shareId = mint();
        request.shareState = SharedVideo.State.ACTIVE.name();
        request.sharePage = json(page);
        request.expiresAt = (request.completedAt == null ? Instant.now() : request.completedAt)
                .plus(days, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MICROS);
        return published(request, page, (request.render == RenderMode.ON_VIEW
                ? "share link opened before its video, which renders when the link is first opened; it lives until "
                : "share link opened; it lives until ") + request.expiresAt);
    }

    /**
     * The render of an on-view request ended: its link (the one handed out at acceptance, never a second) is published
     * again with its video, or marked failed. In the caller's transaction.
     */
    public Uni<Void> rendered(MediaRequest request) {
        return published(request, page(request), request.videoKey != null
                ? "the video rendered on view is on its share page"
                : "the render on view failed: the share page says so");
    }

    /**
     * The owner revokes its request's link ({@code DELETE /media/{transactionId}/share}): from now on it answers the
     * same 404 as an unknown one. Revoking again changes nothing; a request without a link (or another vendor's)
     * is 404.
     */
    @WithTransaction
    public Uni<Void> revoke(UUID clientId, String transactionId) {
        UUID id;
        try {
            id = UUID.fromString(transactionId);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(notFound(transactionId));
        }
        return shares.lockOwned(id, clientId).flatMap(request -> {
            if (request == null || request.shareId == null
                    || SharedVideo.State.EXPIRED.name().equals(request.shareState)) {
                throw notFound(transactionId);
            }
            if (SharedVideo.State.REVOKED.name().equals(request.shareState)) {
                return Uni.createFrom().voidItem();
            }
            request.shareState = SharedVideo.State.REVOKED.name();
            request.updatedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
            return published(request, page(request), "share link revoked by its owner");
        });
    }

    /**
     * Videos whose retention ended: their objects are deleted and their links expire, in batches claimed with SKIP
     * LOCKED (replicas share the sweep). The objects go first: a failure leaves the link active for the next round.
     */
    @WithTransaction
    public Uni<Integer> expire() {
        Instant now = Instant.now();
        return shares.claimExpired(now, config.sweepBatch())
                .flatMap(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(this::expire)
                        .collect().asList().map(List::size));
    }

    private Uni<Void> expire(MediaRequest request) {
        String prefix = VendorNamespace.Kind.MEDIA.prefix(request.clientId) + request.id + "/";
        return Blocking.offload(() -> store.list(prefix).forEach(store::delete)).flatMap(deleted -> {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            // an on-view request nobody opened will never be: it ends here (its link can no longer be claimed)
            Uni<Void> unopened = Uni.createFrom().voidItem();
            if (request.awaitsView()) {
                request.status = MediaStatus.FAILURE;
                request.message = "its share link expired before it was opened; nothing was rendered";
                request.completedAt = now;
                unopened = events.status(request);
            }
            request.shareState = SharedVideo.State.EXPIRED.name();
            request.updatedAt = now;
            return unopened.chain(() -> published(request, page(request), "retention ended: the video's objects are"
                    + " deleted, its link answers 404"));
        });
    }

    /** The link's change as an event for engagement-service, and on the request's timeline. */
    private Uni<Void> published(MediaRequest request, SharePage page, String message) {
        return timeline.record(request.id, "share", request.shareState, message)
                .chain(() -> publisher.publish(event(request, page)));
    }

    private SharedVideo event(MediaRequest request, SharePage page) {
        SharedVideo.Video video = new SharedVideo.Video(request.shareId,
                SharedVideo.State.valueOf(request.shareState), null, request.userId, page.title(), page.cta(),
                page.branding(),
                request.videoKey, request.thumbnailKey, request.captionsKey, request.width, request.height,
                request.durationSeconds, request.completedAt, request.expiresAt, onView(request),
                onView(request) == null ? null : RequestUrls.streamKey(request));
        return new SharedVideo(request.clientId, SharedVideo.Source.realtime, request.id, null, null,
                request.templateId, request.templateVersion, request.useCaseId, List.of(video));
    }

    /** How a page without a video comes to have one: rendered on view, or that render failed; null otherwise. */
    private static SharedVideo.Render onView(MediaRequest request) {
        if (request.render != RenderMode.ON_VIEW || request.videoKey != null) {
            return null;
        }
        return request.status == MediaStatus.FAILURE ? SharedVideo.Render.FAILED : SharedVideo.Render.ON_VIEW;
    }

    private SharePage page(MediaRequest request) {
        try {
            return request.sharePage == null
                    ? new SharePage(null, null, null)
                    : mapper.readValue(request.sharePage, SharePage.class);
        } catch (IOException e) {
            throw new IllegalStateException("stored share page of " + request.id + " is unreadable", e);
        }
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether a request's status answers with its link. */
    static boolean shareable(MediaRequest request) {
        return request.status == MediaStatus.SUCCESS && request.shareId != null;
    }

    private static ApiException notFound(String id) {
        return ApiException.notFound("share link of request '" + id + "' not found");
    }
}
