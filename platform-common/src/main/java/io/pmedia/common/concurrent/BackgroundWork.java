package io.pmedia.common.concurrent;

import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs reactive work that no request started (timers, pollers, consumers) on a fresh, safe duplicated Vert.x
 * context: what reactive Hibernate sessions need, and the same isolation a request gets.
 */
public final class BackgroundWork {

    private static final Logger LOG = Logger.getLogger(BackgroundWork.class);

    private BackgroundWork() {
    }

    /** Subscribes to the work on a new duplicated context; failures are logged with {@code what}. */
    public static <T> void run(Vertx vertx, String what, Supplier<Uni<T>> work) {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(ignored -> work.get().subscribe().with(
                done -> {
                },
                failure -> LOG.warnf(failure, "%s failed: %s", what, failure.getMessage())));
    }

    /** The same, returning the outcome to the caller (which may be on any thread). */
    public static <T> Uni<T> call(Vertx vertx, Supplier<Uni<T>> work) {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        return Uni.createFrom().emitter(emitter -> context.runOnContext(ignored -> work.get().subscribe()
                .with(emitter::complete, emitter::fail)));
    }

    /**
     * A request's database work on a context of its own, run to its end even when the caller stops waiting for it
     * (a viewer who closed the page, a player that gave up, a timeout); the outcome comes back on the caller's
     * context. A reactive Hibernate session cut short by a cancellation is closed under its own running statements:
     * its transaction is rolled back behind the work's back (a claim a viewer made by opening a page is lost), and
     * the next statement finds no session. Its own context also keeps it apart from any other session the caller's
     * context holds: two sessions open at once on one Vert.x context share one slot for it, and the one overwritten
     * is never closed, its connection lost to the pool (docs/decisions.md, "A request's database work runs to its
     * end").
     */
    public static <T> Uni<T> toTheEnd(Vertx vertx, Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> Contexts.resumeOnCurrent(call(vertx, work)));
    }
}
