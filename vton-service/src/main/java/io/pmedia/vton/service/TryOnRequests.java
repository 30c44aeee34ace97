package io.pmedia.vton.service;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.paging.Cursor;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.events.TryOnStatus;
import io.pmedia.vton.GarmentCategory;
import io.pmedia.vton.ModerationLevel;
import io.pmedia.vton.OutputFormat;
import io.pmedia.vton.TryOnMode;
import io.pmedia.vton.TryOnRequest;
import io.pmedia.vton.repository.TryOnRequestStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/** Accepting and reading try-on requests (interface 4.9, 4.10); the work is {@link TryOnWorker}'s. */
@ApplicationScoped
public class TryOnRequests {

    /** A checked request with its defaults applied. */
    public record Submission(UUID clientId, String userId, String usecaseId, String modelImage,
            List<String> garmentImages, GarmentCategory category, TryOnMode mode, ModerationLevel moderationLevel,
            boolean segmentationFree, OutputFormat outputFormat) {
    }

    private final TryOnRequestStore store;
    private final TryOnEvents events;
    private final TryOnWorker worker;
    private final ObjectMapper mapper;

    public TryOnRequests(TryOnRequestStore store, TryOnEvents events, TryOnWorker worker, ObjectMapper mapper) {
        this.store = store;
        this.events = events;
        this.worker = worker;
        this.mapper = mapper;
    }

    /** Stores the request {@code PROCESSING} with its event, in one transaction, and wakes a worker. */
    @WithSpan
    public Uni<TryOnRequest> accept(Submission submission) {
        // programmatic: the worker is woken after the commit, so that it finds the request
        return Panache.withTransaction(() -> {
            TryOnRequest request = new TryOnRequest();
            request.id = UUID.randomUUID();
            request.clientId = submission.clientId();
            request.userId = submission.userId();
            request.usecaseId = submission.usecaseId();
            request.modelImage = submission.modelImage();
            try {
                request.garmentImages = mapper.writeValueAsString(submission.garmentImages());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            request.category = submission.category();
            request.mode = submission.mode();
            request.moderationLevel = submission.moderationLevel();
            request.segmentationFree = submission.segmentationFree();
            request.outputFormat = submission.outputFormat();
            request.engine = worker.engineKind();
            request.status = TryOnStatus.PROCESSING;
            request.message = "try-on accepted";
            request.createdAt = Instant.now();
            request.updatedAt = request.createdAt;
            // The same try-on asked twice while the first is processing is that one (docs/decisions.md,
            // "Creates under concurrency"): doubled or retried creates never run the engine twice.
            return CreateLock.take("tryon", request.clientId, request.userId, request.usecaseId)
                    .flatMap(locked -> store.processingSame(request))
                    .flatMap(same -> same != null
                            ? Uni.createFrom().item(same)
                            : request.<TryOnRequest>persist().call(events::statusOf));
        }).invoke(worker::wake);
    }

    /** What {@code GET /vton/requests} filters on; null: any. */
    public record ListFilter(TryOnStatus status, String usecaseId, Instant from, Instant to) {
    }

    /** A page of the client's requests, newest first. */
    @WithSession
    public Uni<Page<TryOnRequest>> list(UUID clientId, ListFilter filter, PageRequest page) {
        return store.page(clientId, page.keyset(filter.from(), filter.to()), filter.status(),
                filter.usecaseId(), page.fetchSize())
                .map(rows -> page.page(rows, request -> new Cursor(request.createdAt, request.id.toString())));
    }

    @WithSession
    public Uni<TryOnRequest> find(UUID requestId, UUID clientId) {
        return store.findOwned(requestId, clientId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("try-on request '" + requestId + "' not found"));
    }
}
