package io.pmedia.media.worker;

import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.media.config.MediaConfig;
import io.pmedia.storage.ObjectStore;
import io.smallrye.faulttolerance.api.Guard;

/**
 * The render's object-store steps, retried while the store cannot be reached (connection refused, 5xx), with an
 * exponential backoff up to {@code pmedia.media.render.store-retry-for}: a render in flight during a store outage
 * ends SUCCESS once the store is back instead of FAILURE. Runs on a render slot's own thread, which waits anyway.
 */
@ApplicationScoped
public class StoreRetry {

    private static final Logger LOG = Logger.getLogger(StoreRetry.class);

    private final Guard guard;

    public StoreRetry(MediaConfig config) {
        this.guard = Guard.create().withDescription("object store steps of a render")
                .withRetry()
                .maxRetries(-1)
                .maxDuration(config.render().storeRetryFor().toMillis(), ChronoUnit.MILLIS)
                .delay(500, ChronoUnit.MILLIS)
                .jitter(200, ChronoUnit.MILLIS)
                .whenException(ObjectStore::isUnavailable)
                .beforeRetry(failure -> LOG.warnf("object store unavailable (%s); retrying", failure.getMessage()))
                .withExponentialBackoff().maxDelay(5, ChronoUnit.SECONDS).done()
                .done()
                .build();
    }

    public <T> T get(Supplier<T> step, Class<T> type) {
        return guard.get(step, type);
    }

    public void run(Runnable step) {
        guard.get(() -> {
            step.run();
            return Boolean.TRUE;
        }, Boolean.class);
    }
}
