package io.pmedia.common.concurrent;

import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs blocking work (DNS, hashing, files, the AWS SDK, ffmpeg) on a worker thread and delivers the result back on
 * the caller's Vert.x context, where reactive Hibernate sessions and the SQL client expect to continue.
 */
public final class Blocking {

    private Blocking() {
    }

    public static <T> Uni<T> offload(Supplier<T> work) {
        Context context = Vertx.currentContext();
        Uni<T> uni = Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }

    public static Uni<Void> offload(Runnable work) {
        return offload(() -> {
            work.run();
            return null;
        });
    }
}
