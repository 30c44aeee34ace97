package io.pmedia.vton.service;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.concurrent.Contexts;
import io.pmedia.events.TryOnStatus;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.pmedia.vton.EngineKind;
import io.pmedia.vton.TryOnRequest;
import io.pmedia.vton.config.VtonConfig;
import io.pmedia.vton.engine.BuiltinEngine;
import io.pmedia.vton.engine.FashnEngine;
import io.pmedia.vton.engine.TryOnEngine;
import io.pmedia.vton.engine.TryOnException;
import io.pmedia.vton.repository.TryOnRequestStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Works through {@code PROCESSING} requests on every replica: a request is claimed with a lease
 * ({@code FOR UPDATE SKIP LOCKED}), its engine runs (blocking steps on worker threads, waits on timers), the image
 * goes to the object store, and the outcome and its event commit together. A replica that dies mid-request leaves it to another when the lease ends;
 * after {@code max-attempts} claims it ends {@code FAILURE}.
 */
@ApplicationScoped
public class TryOnWorker {

    private static final Logger LOG = Logger.getLogger(TryOnWorker.class);
    private static final TypeReference<List<String>> URLS = new TypeReference<>() {
    };

    private final Vertx vertx;
    private final TryOnRequestStore requests;
    private final BuiltinEngine builtin;
    private final FashnEngine fashn;
    private final ObjectStore store;
    private final TryOnEvents events;
    private final ObjectMapper mapper;
    private final VtonConfig config;
    private final AtomicInteger busy = new AtomicInteger();
    private volatile boolean started;
    private long timer = -1;

    public TryOnWorker(Vertx vertx, TryOnRequestStore requests, BuiltinEngine builtin, FashnEngine fashn,
            ObjectStore store, TryOnEvents events, ObjectMapper mapper, VtonConfig config) {
        this.vertx = vertx;
        this.requests = requests;
        this.builtin = builtin;
        this.fashn = fashn;
        this.store = store;
        this.events = events;
        this.mapper = mapper;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        started = true;
        timer = vertx.setPeriodic(config.pollEvery().toMillis(), id -> wake());
        if (config.engine() == EngineKind.FASHN && !fashn.configured()) {
            LOG.warn("pmedia.vton.engine is fashn but PMEDIA_FASHN_API_KEY is not set: try-on requests will fail");
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        started = false;
        vertx.cancelTimer(timer);
    }

    /** The engine new requests are accepted for. */
    public EngineKind engineKind() {
        return config.engine();
    }

    /** Claims requests while this replica has room. */
    public void wake() {
        if (!started) {
            return;
        }
        while (true) {
            int now = busy.get();
            if (now >= config.concurrency()) {
                return;
            }
            if (busy.compareAndSet(now, now + 1)) {
                break;
            }
        }
        BackgroundWork.run(vertx, "working on a try-on request", () -> claim()
                .flatMap(request -> request == null
                        ? Uni.createFrom().item(false)
                        : work(request).replaceWith(true))
                .eventually(() -> {
                    busy.decrementAndGet();
                })
                .invoke(worked -> {
                    if (worked) {
                        wake();
                    }
                }));
    }

    /** The oldest due request, leased to this replica; or null. */
    Uni<TryOnRequest> claim() {
        Instant now = Instant.now();
        // programmatic: the claim, the engine's run and the outcome are separate commits of a background run
        return Panache.withTransaction(() -> requests.claimNext(now)
                .flatMap(request -> {
                    if (request == null) {
                        return Uni.createFrom().nullItem();
                    }
                    if (request.attempts >= config.maxAttempts()) {
                        return finish(request, TryOnStatus.FAILURE, null,
                                "try-on did not complete after " + request.attempts + " attempts")
                                .replaceWith((TryOnRequest) null);
                    }
                    request.attempts++;
                    request.leaseUntil = now.plus(config.lease());
                    request.updatedAt = now;
                    return Uni.createFrom().item(request);
                }));
    }

    private Uni<Void> work(TryOnRequest request) {
        TryOnEngine engine = request.engine == EngineKind.FASHN ? fashn : builtin;
        TryOnEngine.Job job;
        try {
            job = new TryOnEngine.Job(request.id, request.clientId, request.modelImage,
                    mapper.readValue(request.garmentImages, URLS),
                    request.category, request.mode, request.moderationLevel, request.segmentationFree,
                    request.outputFormat);
        } catch (java.io.IOException e) {
            return complete(request, TryOnStatus.FAILURE, null, "the stored request cannot be read");
        }
        String key = VendorNamespace.Kind.VTON.prefix(request.clientId) + request.id + "/output."
                + request.outputFormat.extension();
        Uni<String> kept = engine.run(job).flatMap(output -> Blocking.offload(() -> {
            store.put(key, output.image(), output.contentType());
            return key;
        }));
        return Contexts.resumeOnCurrent(kept)
                .flatMap(stored -> complete(request, TryOnStatus.SUCCESS, stored, "try-on ready"))
                .onFailure(TryOnException.class).recoverWithUni(failure -> complete(request, TryOnStatus.FAILURE, null,
                        failure.getMessage()))
                .onFailure(ObjectStore::isUnavailable).recoverWithUni(failure -> {
                    LOG.warnf("try-on %s: the object store is unavailable (%s); trying again in %s", request.id,
                            failure.getMessage(), config.storeRetryDelay());
                    return retrySoon(request);
                })
                .onFailure().recoverWithUni(failure -> {
                    // Not the vendor's input: the lease runs out and the request is tried again.
                    LOG.warnf(failure, "try-on %s failed on attempt %d", request.id, request.attempts);
                    return Uni.createFrom().voidItem();
                });
    }

    /** Due again shortly, and the attempt given back. */
    private Uni<Void> retrySoon(TryOnRequest claimed) {
        // programmatic: the outcome's own commit, after the engine's run (see claim)
        return Panache.withTransaction(() -> TryOnRequest.<TryOnRequest>findById(claimed.id)
                .invoke(request -> {
                    if (request != null && request.status == TryOnStatus.PROCESSING) {
                        request.attempts = Math.max(0, request.attempts - 1);
                        request.leaseUntil = Instant.now().plus(config.storeRetryDelay());
                        request.updatedAt = Instant.now();
                    }
                })).replaceWithVoid();
    }

    private Uni<Void> complete(TryOnRequest claimed, TryOnStatus status, String key, String message) {
        // programmatic: the outcome's own commit, after the engine's run (see claim)
        return Panache.withTransaction(() -> TryOnRequest.<TryOnRequest>findById(claimed.id)
                .flatMap(request -> request == null || request.status != TryOnStatus.PROCESSING
                        ? Uni.createFrom().voidItem()
                        : finish(request, status, key, message)));
    }

    private Uni<Void> finish(TryOnRequest request, TryOnStatus status, String key, String message) {
        request.status = status;
        request.outputKey = key;
        request.message = message;
        request.leaseUntil = null;
        request.updatedAt = Instant.now();
        return events.statusOf(request);
    }
}
