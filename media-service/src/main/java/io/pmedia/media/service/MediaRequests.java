package io.pmedia.media.service;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.paging.Cursor;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.events.MediaStatus;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderLane;
import io.pmedia.events.RenderMode;
import io.pmedia.events.RenderResult;
import io.pmedia.events.Topics;
import io.pmedia.media.AcceptanceStatus;
import io.pmedia.media.MediaRequest;
import io.pmedia.media.RequestForm;
import io.pmedia.media.TemplateVersion;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.stream.StreamOpenings;
import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.media.repository.MediaRequestStore;
import io.pmedia.media.repository.RequestEventStore;
import io.pmedia.media.repository.TemplateStore;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolutionException;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The life of a realtime request: acceptance (idempotent per client and client-request-id; a request that cannot be
 * served is accepted as FAILURE with the reason), completion from a render result, status reads, and resubmission
 * of renders that never came back.
 */
@ApplicationScoped
public class MediaRequests {

    /**
     * A request as it arrived, with how to turn it into render input once its template is known, and when to render
     * it (at once, or on the first view of its share link).
     */
    public record Submission(RequestForm form, String clientRequestId, String customerId, String useCaseId,
            String userId, String referenceRecordId, Object body, Function<TemplateDefinition, RenderInput> input,
            RenderMode render) {
    }

    /** Interface 2.5, and the share link of a request rendered on view (null otherwise): out before any render. */
    public record Acceptance(AcceptanceStatus status, String message, String clientRequestId, String serviceRequestId,
            String shareUrl) {
    }

    /** Interface 2.6. */
    public record Status(String status, String message, String videoUrl, String imageUrl,
            Map<String, String> renditions, String captionsUrl, String streamUrl, String shareUrl) {
    }

    /** One request of a list: its 2.6 status and what a dashboard shows beside it. */
    public record Listed(MediaRequest request, Status status) {
    }

    /** What {@code GET /media/requests} filters on; null: any. */
    public record ListFilter(MediaStatus status, String useCaseId, Instant from, Instant to) {
    }

    static final String ACCEPTED = "request accepted";
    /** What the acceptance of an on-view request adds, and its status message until its link is opened. */
    static final String ON_VIEW = "rendered when its share-url is first opened";
    /** The producer name of realtime render jobs: their results are this service's. */
    public static final String PRODUCER = "media";
    /** Most stale renders one sweep takes on. */
    private static final int STALE_BATCH = 50;
    private static final Logger LOG = Logger.getLogger(MediaRequests.class);

    private final ObjectMapper mapper;
    private final MediaRequestStore requests;
    private final TemplateStore versions;
    private final MediaEvents events;
    private final TemplateCatalog templates;
    private final ObjectStore store;
    private final MediaConfig config;
    private final ShareLinks shares;
    private final RequestEventStore timeline;
    private final StreamOpenings openings;
    private final OnViewRenders onView;
    private final Vertx vertx;

    public MediaRequests(ObjectMapper mapper, MediaRequestStore requests, TemplateStore versions, MediaEvents events,
            TemplateCatalog templates, ObjectStore store, MediaConfig config, ShareLinks shares,
            RequestEventStore timeline, StreamOpenings openings, OnViewRenders onView, Vertx vertx) {
        this.vertx = vertx;
        this.openings = openings;
        this.onView = onView;
        this.shares = shares;
        this.timeline = timeline;
        this.mapper = mapper;
        this.requests = requests;
        this.versions = versions;
        this.events = events;
        this.templates = templates;
        this.store = store;
        this.config = config;
    }

    /**
     * Accepts a request, or replays the acceptance of the same one. Programmatic: a duplicate key (the same request
     * accepted at once elsewhere) rolls the transaction back, and the replay is read in a session of its own.
     */
    @WithSpan
    public Uni<Acceptance> accept(UUID clientId, Submission submission) {
        String hash = Canonical.hash(mapper, Map.of("form", submission.form().wire(), "body", submission.body()));
        // the playlist is written before the transaction commits: the render job leaves the outbox only after the
        // commit, so a worker never starts publishing the stream before the acceptance's playlist is there
        return Panache.withTransaction(() -> requests.findByClientRequest(clientId, submission.clientRequestId())
                .flatMap(existing -> existing != null
                        ? Uni.createFrom().item(new Accepted(replay(existing, hash), null, null))
                        : versions.currentFor(submission.useCaseId(), clientId)
                                .flatMap(template -> create(clientId, submission, hash, template)))
                .call(this::openStream))
                .onFailure(MediaRequestStore::isDuplicateKey).recoverWithUni(() -> Panache.withSession(
                        () -> requests.findByClientRequest(clientId, submission.clientRequestId())
                                .map(existing -> new Accepted(replay(existing, hash), null, null))))
                .map(Accepted::acceptance);
    }

    /**
     * An acceptance, and the stream key of a request created by it with the opening its stream can play at once
     * (both null for a replay or a failure; the opening empty when none is cached).
     */
    private record Accepted(Acceptance acceptance, String streamKey, Supplier<Optional<byte[]>> opening) {
    }

    /**
     * Writes the request's stream playlist before the acceptance commits (so before any worker can have its job) and
     * answers: the status offers {@code stream-url} from
     * then on, and a player handed it at once must find a playlist (hls.js treats a 404 playlist as fatal, an EVENT
     * playlist without segments as one to reload). When the video opens with static chunks whose opening is cached
     * ({@link StreamOpenings}), the playlist names those segments already, so the video plays at once;
     * else it has no segment yet. The worker's publisher continues it. The render does not depend on it: when the
     * store cannot take it, the request stays accepted and the playlist appears with the first segment, as the
     * stream would without it.
     */
    private Uni<Void> openStream(Accepted accepted) {
        String streamKey = accepted.streamKey();
        if (streamKey == null) {
            return Uni.createFrom().voidItem();
        }
        return Blocking.offload(() -> store.put(streamKey,
                accepted.opening().get().orElseGet(StreamPublisher::emptyPlaylist), StreamPublisher.PLAYLIST_TYPE))
                .onFailure().invoke(e -> LOG.warnf("stream playlist %s not written at acceptance: %s", streamKey,
                        e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    private Acceptance replay(MediaRequest existing, String hash) {
        if (!existing.requestHash.equals(hash)) {
            throw ApiException.conflict("client-request-id '" + existing.clientRequestId
                    + "' was already used with a different request");
        }
        return acceptance(existing);
    }

    private Uni<Accepted> create(UUID clientId, Submission submission, String hash, TemplateVersion template) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        MediaRequest request = new MediaRequest();
        request.id = UUID.randomUUID();
        request.clientId = clientId;
        request.clientRequestId = submission.clientRequestId();
        request.requestHash = hash;
        request.form = submission.form();
        request.customerId = submission.customerId();
        request.userId = submission.userId();
        request.useCaseId = submission.useCaseId();
        request.referenceRecordId = submission.referenceRecordId();
        request.createdAt = now;
        request.updatedAt = now;

        String failure = null;
        List<String> ignored = List.of();
        TemplateDefinition definition = null;
        RenderInput input = null;
        ResolvedVideo resolved = null;
        if (template == null || !templates.mayUse(template, clientId)) {
            failure = "unknown use-case-id '" + submission.useCaseId() + "'";
        } else {
            definition = templates.definition(template);
            try {
                input = submission.input().apply(definition);
                resolved = TemplateResolver.resolve(definition, input);
                ignored = TemplateResolver.ignoredFields(definition, input);
            } catch (TemplateResolutionException e) {
                failure = e.getMessage();
            }
        }
        if (failure != null) {
            request.status = MediaStatus.FAILURE;
            request.message = failure;
            request.acceptStatus = AcceptanceStatus.FAILURE;
            request.acceptMessage = failure;
            request.completedAt = now;
        } else {
            boolean onView = submission.render() == RenderMode.ON_VIEW;
            request.status = MediaStatus.PROCESSING;
            request.message = onView ? ON_VIEW : "rendering";
            request.acceptStatus = AcceptanceStatus.SUCCESS;
            request.acceptMessage = (onView ? ACCEPTED + "; " + ON_VIEW : ACCEPTED) + (ignored.isEmpty()
                    ? ""
                    : "; ignored fields: " + TemplateResolver.nameList(ignored));
            request.templateId = template.templateId;
            request.templateVersion = template.version;
            request.renderInput = json(input);
            request.render = submission.render();
            request.attempts = onView ? 0 : 1;
        }
        TemplateDefinition chosen = definition;
        RenderInput chosenInput = input;
        ResolvedVideo video = resolved;
        if (request.render == RenderMode.ON_VIEW) {
            // Its link and page now, its render on the first view (docs/sharing.md, "Render on first view"): no job,
            // and no stream playlist until the claim writes it.
            return request.<MediaRequest>persist()
                    .call(saved -> shares.vendorRetentionDays(saved.clientId)
                            .flatMap(days -> shares.open(saved, chosen, chosenInput, days)))
                    .call(saved -> events.status(saved))
                    .map(saved -> new Accepted(acceptance(saved), null, null));
        }
        return request.<MediaRequest>persist()
                .call(saved -> events.status(saved))
                .call(saved -> saved.status == MediaStatus.PROCESSING
                        ? events.renderJob(job(saved, template, chosen, chosenInput))
                        : Uni.createFrom().voidItem())
                .map(saved -> saved.status == MediaStatus.PROCESSING
                        ? new Accepted(acceptance(saved), RequestUrls.streamKey(saved), () -> opening(saved, video))
                        : new Accepted(acceptance(saved), null, null));
    }

    private Acceptance acceptance(MediaRequest request) {
        return new Acceptance(request.acceptStatus, request.acceptMessage, request.clientRequestId,
                request.id.toString(), request.render == RenderMode.ON_VIEW ? shares.url(request) : null);
    }

    /** The cached opening of the request's stream, when there is one (a miss or a store error: none). */
    private Optional<byte[]> opening(MediaRequest request, ResolvedVideo video) {
        try {
            return openings.openingPlaylist(request.clientId, request.templateId, request.templateVersion, video,
                    store::publicUrl);
        } catch (RuntimeException e) {
            LOG.debugf("no cached opening for %s: %s", request.id, e.getMessage());
            return Optional.empty();
        }
    }

    /** {@code template}'s owner says whose motions its lottie layers name: a shared template's are the shared ones. */
    private RenderJob job(MediaRequest request, TemplateVersion template, TemplateDefinition definition,
            RenderInput input) {
        return new RenderJob(request.id.toString(), PRODUCER, Topics.RENDER_RESULTS, request.clientId,
                request.templateId, request.templateVersion, mapper.valueToTree(definition), input,
                VendorNamespace.Kind.MEDIA.prefix(request.clientId) + request.id + "/",
                (int) config.render().timeLimit().toSeconds(), RenderLane.REALTIME, template.ownerClientId == null);
    }

    /** Applies a render result to its request, once: a result for a request already final changes nothing. */
    @WithTransaction
    @WithSpan
    public Uni<Void> complete(RenderResult result) {
        UUID id;
        try {
            id = UUID.fromString(result.jobId());
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().voidItem();
        }
        return requests.lock(id).flatMap(request -> {
            if (request == null || request.status.isFinal()) {
                return Uni.createFrom().voidItem();
            }
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            boolean success = result.succeeded();
            request.status = success ? MediaStatus.SUCCESS : MediaStatus.FAILURE;
            request.message = success ? "video ready" : result.message();
            request.videoKey = success ? result.videoKey() : null;
            request.thumbnailKey = success ? result.thumbnailKey() : null;
            request.renditions = success && result.renditions() != null && !result.renditions().isEmpty()
                    ? json(result.renditions())
                    : null;
            request.captionsKey = success ? result.captionsKey() : null;
            request.durationSeconds = result.durationSeconds();
            request.width = result.width();
            request.height = result.height();
            request.renderMillis = result.renderMillis();
            request.completedAt = now;
            request.updatedAt = now;
            if (request.render == RenderMode.ON_VIEW) {
                // rendered on view: the link handed out at acceptance gets its video (or says it failed), and the
                // render slot it leaves takes a waiting one
                return events.status(request).chain(() -> shares.rendered(request)).call(onView::admit);
            }
            if (!success) {
                return events.status(request);
            }
            // A video that is ready gets its share link, minted here and carried by its status event.
            return versions.version(request.templateId, request.templateVersion)
                    .flatMap(template -> shares.vendorRetentionDays(request.clientId)
                            .flatMap(days -> shares.open(request, templates.definition(template),
                                    storedInput(request), days)))
                    .call(opened -> events.status(request));
        });
    }

    private RenderInput storedInput(MediaRequest request) {
        try {
            return request.renderInput == null
                    ? RenderInput.empty()
                    : mapper.readValue(request.renderInput, RenderInput.class);
        } catch (IOException e) {
            throw new IllegalStateException("stored render input of " + request.id + " is unreadable", e);
        }
    }

    /** A page of the client's requests, newest first, each with its status as 2.6 shows it. */
    @WithSession
    public Uni<Page<Listed>> list(UUID clientId, ListFilter filter, PageRequest page) {
        return requests.page(clientId, page.keyset(filter.from(), filter.to()), filter.status(),
                filter.useCaseId(), page.fetchSize())
                .map(rows -> page.page(rows, request -> new Cursor(request.createdAt, request.id.toString()))
                        .map(request -> new Listed(request, statusOf(request))));
    }

    /**
     * The client's request as interface 2.6 shows it; another client's id reads as not found. The owner's read of an
     * on-view request nobody opened yet is its first view: it claims the render, as an open of its link would, and
     * to its end on a context of its own: a caller who stops waiting has still viewed it (docs/decisions.md, "A
     * request's database work runs to its end").
     */
    @WithSession
    public Uni<Status> status(UUID clientId, String transactionId) {
        // a revoked (or expired) link is viewed by nobody: its owner's read renders nothing either
        return owned(clientId, transactionId).flatMap(request -> request.awaitsView() && shares.url(request) != null
                ? BackgroundWork.toTheEnd(vertx, () -> Panache.withTransaction(
                        () -> onView.claim(request.id, clientId, null)))
                        .map(claimed -> statusOf(claimed != null ? claimed : request))
                : Uni.createFrom().item(statusOf(request)));
    }

    /** The job of an admitted on-view request, as its acceptance would have submitted it, and its stream playlist. */
    Uni<Void> submitClaimed(MediaRequest request) {
        LOG.infof("rendering %s on its first view", request.id);
        return versions.version(request.templateId, request.templateVersion).flatMap(template -> {
            TemplateDefinition definition = templates.definition(template);
            RenderInput input = storedInput(request);
            return events.renderJob(job(request, template, definition, input))
                    .call(() -> openStream(new Accepted(null, RequestUrls.streamKey(request),
                            () -> opening(request, TemplateResolver.resolve(definition, input)))));
        });
    }

    /** The request's timeline, oldest first; 404 for another client's request or an unknown id, like the status. */
    @WithSession
    public Uni<List<RequestEventStore.RequestEvent>> timeline(UUID clientId, String transactionId) {
        return owned(clientId, transactionId).flatMap(request -> timeline.of(request.id));
    }

    /** The client's request named by {@code transactionId}; 404 for another client's, an unknown one or no uuid. */
    private Uni<MediaRequest> owned(UUID clientId, String transactionId) {
        UUID id;
        try {
            id = UUID.fromString(transactionId);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(notFound(transactionId));
        }
        return requests.findOwned(clientId, id)
                .onItem().ifNull().failWith(() -> notFound(transactionId));
    }

    private Status statusOf(MediaRequest request) {
        boolean ready = request.status == MediaStatus.SUCCESS;
        return new Status(request.status.name(), request.message,
                ready && request.videoKey != null ? store.publicUrl(request.videoKey) : null,
                ready && request.thumbnailKey != null ? store.publicUrl(request.thumbnailKey) : null,
                ready ? RequestUrls.renditions(mapper, store, request) : null,
                ready && request.captionsKey != null ? store.publicUrl(request.captionsKey) : null,
                request.status != MediaStatus.FAILURE && !request.awaitsRender()
                        ? store.publicUrl(RequestUrls.streamKey(request))
                        : null,
                shares.url(request));
    }

    /**
     * Requests whose render has not come back in time get their job submitted again (a lost job, a poisoned
     * worker); after the last attempt they end FAILURE. Claimed with SKIP LOCKED, so replicas share the work.
     */
    @WithTransaction
    public Uni<Integer> resubmitStale() {
        Instant cutoff = Instant.now().minus(config.render().resubmitAfter());
        return requests.claimStale(cutoff, STALE_BATCH)
                .flatMap(stale -> Multi.createFrom().iterable(stale)
                        .onItem().transformToUniAndConcatenate(this::resubmit)
                        .collect().asList().map(List::size));
    }

    private Uni<Void> resubmit(MediaRequest request) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        request.updatedAt = now;
        if (request.attempts >= config.render().maxAttempts()) {
            request.status = MediaStatus.FAILURE;
            request.message = "render did not complete after " + request.attempts + " attempts";
            request.completedAt = now;
            return request.render == RenderMode.ON_VIEW
                    ? events.status(request).chain(() -> shares.rendered(request))
                    : events.status(request);
        }
        request.attempts++;
        LOG.infof("resubmitting render of %s (attempt %d)", request.id, request.attempts);
        return versions.version(request.templateId, request.templateVersion)
                .flatMap(template -> events.renderJob(job(request, template, templates.definition(template),
                        storedInput(request))));
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ApiException notFound(String id) {
        return ApiException.notFound("request '" + id + "' not found");
    }
}
