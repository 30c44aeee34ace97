package io.pmedia.common.concurrent;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Brings the outcome of work that ends on another thread (a worker, an HTTP client's event loop, a timer) back to
 * the caller's Vert.x context, where reactive Hibernate sessions and the SQL client expect to continue.
 */
public final class Contexts {

    private Contexts() {
    }

    /** {@code work}, delivering its outcome on the context current at this call (as it is, when there is none). */
    public static <T> Uni<T> resumeOnCurrent(Uni<T> work) {
        Context context = Vertx.currentContext();
        return context == null ? work : work.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }
}
