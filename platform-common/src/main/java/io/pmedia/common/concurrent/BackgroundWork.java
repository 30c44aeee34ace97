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
}
