package io.pmedia.common.concurrent;

import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Runs blocking work (DNS, hashing, files, the AWS SDK, ffmpeg) on a worker thread and delivers the result back on
 * the caller's Vert.x context, where reactive Hibernate sessions and the SQL client expect to continue.
 */
public final class Blocking {

    private Blocking() {
    }

    public static <T> Uni<T> offload(Supplier<T> work) {
        return Contexts.resumeOnCurrent(
                Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
    }

    public static Uni<Void> offload(Runnable work) {
        return offload(() -> {
            work.run();
            return null;
        });
    }
}
