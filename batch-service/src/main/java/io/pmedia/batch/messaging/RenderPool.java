package io.pmedia.batch.messaging;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.service.RenderSlots;
import io.pmedia.common.kafka.GroupMembers;
import io.pmedia.events.Topics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.Vertx;

/**
 * What the broker says about the render workers, kept fresh in the background: the render slots that take batch rows
 * (docs/batch.md, "The bound"), that is the members of the render workers' consumer group ({@code lane.workers-group})
 * holding partitions of the batch lane, as the broker describes the group ({@link GroupMembers}), times
 * {@code lane.slots-per-worker}. The workers announce themselves by joining that group, and a worker holds at most one
 * batch job rendering and one lined up per slot (docs/media.md, "Render lanes"), so this is what the pool can start
 * soon. Described every {@code lane.workers-every}; before the first description, when the broker refuses or cannot
 * answer, or while no worker is there, the pool counts as one worker (a few rows then wait on the topic for the first
 * worker, not the backlog). {@code lane.slots} fixes the count instead (no Kafka admin calls at all).
 */
@ApplicationScoped
public class RenderPool implements RenderSlots {

    private final Map<String, Object> kafka;
    private final BatchConfig config;
    private final BatchConfig.Lane lane;
    private final Vertx vertx;
    private GroupMembers workers;

    public RenderPool(@Identifier("default-kafka-broker") Map<String, Object> kafka, BatchConfig config, Vertx vertx) {
        this.kafka = kafka;
        this.config = config;
        this.lane = config.lane();
        this.vertx = vertx;
    }

    void onStart(@Observes StartupEvent event) {
        if (lane.slots().isPresent() || !config.dispatcherEnabled()) {
            return; // a fixed pool, or a replica that submits nothing
        }
        workers = GroupMembers.watch(kafka, "batch-render-pool", lane.workersGroup(), Topics.RENDER_JOBS_BATCH,
                lane.workersEvery(), vertx);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (workers != null) {
            workers.close();
        }
    }

    @Override
    public int slots() {
        if (lane.slots().isPresent()) {
            return Math.max(1, lane.slots().getAsInt());
        }
        return Math.max(1, workers()) * Math.max(1, lane.slotsPerWorker());
    }

    @Override
    public int workers() {
        return workers == null ? -1 : workers.count();
    }
}
