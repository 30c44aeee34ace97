package io.pmedia.media.messaging;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.config.ShareConfig;
import io.pmedia.common.error.Outages;
import io.pmedia.media.service.ShareLinks;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The retention sweep (docs/sharing.md): on schedule, videos past their retention lose their objects and their share
 * links, a batch at a time until none is due. Runs where {@code pmedia.share.sweep-enabled} (the API role).
 */
@ApplicationScoped
public class ShareRetention {

    private static final Logger LOG = Logger.getLogger(ShareRetention.class);
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(5);
    private static final int MAX_BATCHES = 50;

    private final ShareLinks shares;
    private final ShareConfig config;
    private final Vertx vertx;

    public ShareRetention(ShareLinks shares, ShareConfig config, Vertx vertx) {
        this.shares = shares;
        this.config = config;
        this.vertx = vertx;
    }

    @Scheduled(every = "${pmedia.share.sweep-every:10m}", delayed = "${pmedia.share.sweep-delay:1m}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        if (!config.sweepEnabled()) {
            return Uni.createFrom().voidItem();
        }
        return round(0).ifNoItem().after(ROUND_TIMEOUT).fail()
                .onFailure(Outages::isUnreachableDependency).recoverWithUni(failure -> {
                    LOG.warnf("retention sweep skipped (%s); it runs again on schedule", failure.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    /** Expires batches until one comes back short (or {@value #MAX_BATCHES} ran). */
    Uni<Void> round(int batches) {
        return BackgroundWork.call(vertx, shares::expire).flatMap(expired -> {
            if (expired > 0) {
                LOG.infof("retention sweep expired %d videos", expired);
            }
            return expired >= config.sweepBatch() && batches + 1 < MAX_BATCHES
                    ? round(batches + 1)
                    : Uni.createFrom().voidItem();
        });
    }
}
