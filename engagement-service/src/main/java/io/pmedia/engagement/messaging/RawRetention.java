package io.pmedia.engagement.messaging;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.service.Rollups;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * What is kept, and for how long (docs/privacy.md): raw viewer events and page-view sessions for
 * {@code pmedia.engagement.raw-retention}; the day's visitor hashes and their salt until the day after; rollups as
 * long as their videos.
 */
@ApplicationScoped
public class RawRetention {

    private static final Logger LOG = Logger.getLogger(RawRetention.class);
    private static final int BATCH = 5_000;

    private final Rollups rollups;
    private final EngagementConfig config;
    private final Vertx vertx;

    public RawRetention(Rollups rollups, EngagementConfig config, Vertx vertx) {
        this.rollups = rollups;
        this.config = config;
        this.vertx = vertx;
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        Instant cutoff = Instant.now().minus(config.rawRetention());
        LocalDate yesterday = LocalDate.now(ZoneOffset.UTC).minusDays(1);
        return BackgroundWork.call(vertx, () -> rollups.deleteRawBefore(cutoff, yesterday, BATCH))
                .invoke(deleted -> {
                    if (deleted.total() > 0) {
                        LOG.infof("retention: %d raw events, %d sessions, %d visitor hashes deleted",
                                deleted.events(), deleted.sessions(), deleted.visitors());
                    }
                })
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("retention sweep skipped (%s); it runs again on schedule", failure.getMessage());
                    return null;
                });
    }
}
