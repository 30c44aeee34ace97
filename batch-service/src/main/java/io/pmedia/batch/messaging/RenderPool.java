package io.pmedia.batch.messaging;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.jboss.logging.Logger;

import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.service.RenderSlots;
import io.pmedia.events.Topics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.Vertx;

/**
 * What the broker says about the render workers, kept fresh in the background: the render slots that take batch rows
 * (docs/batch.md, "The bound"), that is the members of the render workers' consumer group ({@code lane.workers-group})
 * holding partitions of the batch lane, as the broker describes the group, times {@code lane.slots-per-worker}. The
 * workers announce themselves by joining that group, and a worker holds at most one batch job rendering and one lined
 * up per slot (docs/media.md, "Render lanes"), so this is what the pool can start soon. Described every
 * {@code lane.workers-every}; before the first description, when the broker refuses or cannot answer, or while no
 * worker is there, the pool counts as one worker (a few rows then wait on the topic for the first worker, not the
 * backlog). {@code lane.slots} fixes the count instead (no Kafka admin calls at all).
 */
@ApplicationScoped
public class RenderPool implements RenderSlots {

    private static final Logger LOG = Logger.getLogger(RenderPool.class);
    /** Group states in which members' assignments are being moved. */
    private static final Set<GroupState> MOVING = EnumSet.of(GroupState.PREPARING_REBALANCE,
            GroupState.COMPLETING_REBALANCE, GroupState.ASSIGNING, GroupState.RECONCILING);

    private final Map<String, Object> kafka;
    private final BatchConfig config;
    private final BatchConfig.Lane lane;
    private final Vertx vertx;
    /** Workers seen on the batch lane at the last description; -1 before the first one. */
    private volatile int workers = -1;
    private final AtomicBoolean asking = new AtomicBoolean();
    private volatile boolean warned;
    private Admin admin;
    private long timer = -1;

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
        // the service's kafka.* settings (TLS and SASL included), as the channels and the outbox relay use them
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "batch-render-pool-" + UUID.randomUUID());
        admin = Admin.create(settings);
        refresh();
        timer = vertx.setPeriodic(lane.workersEvery().toMillis(), id -> refresh());
    }

    void onStop(@Observes ShutdownEvent event) {
        vertx.cancelTimer(timer);
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }

    @Override
    public int slots() {
        if (lane.slots().isPresent()) {
            return Math.max(1, lane.slots().getAsInt());
        }
        return Math.max(1, workers) * Math.max(1, lane.slotsPerWorker());
    }

    @Override
    public int workers() {
        return workers;
    }

    /**
     * Describes the workers' group, without blocking (the answer comes on the admin client's thread); keeps the last
     * count while the group rebalances or the broker cannot answer, and asks again only once the last answer came.
     */
    void refresh() {
        if (!asking.compareAndSet(false, true)) {
            return;
        }
        admin.describeConsumerGroups(List.of(lane.workersGroup())).describedGroups().get(lane.workersGroup())
                .whenComplete((group, error) -> {
                    Throwable failure = error instanceof CompletionException && error.getCause() != null
                            ? error.getCause()
                            : error;
                    try {
                        if (failure instanceof GroupIdNotFoundException) {
                            counted(0);
                        } else if (failure != null) {
                            cannotDescribe(failure);
                        } else if (!MOVING.contains(group.groupState())) {
                            counted((int) group.members().stream()
                                    .filter(member -> member.assignment().topicPartitions().stream()
                                            .anyMatch(partition -> Topics.RENDER_JOBS_BATCH.equals(partition.topic())))
                                    .count());
                        }
                        // while assignments move, the count of a moment ago holds
                    } finally {
                        asking.set(false);
                    }
                });
    }

    private void counted(int seen) {
        int before = workers;
        workers = seen;
        warned = false;
        if (seen != before) {
            LOG.infof("render pool: %d worker(s) on %s with %d slot(s) each", seen, Topics.RENDER_JOBS_BATCH,
                    lane.slotsPerWorker());
        }
    }

    private void cannotDescribe(Throwable failure) {
        if (!warned) {
            warned = true;
            LOG.warnf("render pool: cannot describe the group %s (%s); counting %d slot(s) and those seen busy",
                    lane.workersGroup(), failure.getMessage(), slots());
        }
    }
}
