package io.pmedia.media.worker;

import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.pmedia.common.tracing.Traces;
import io.pmedia.events.RenderLane;
import io.pmedia.media.config.MediaConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;

/**
 * The render workers of this replica: {@code slots} renders at once, fed by two lanes (docs/media.md, "Render
 * lanes"). Realtime jobs ({@code pmedia.render.jobs}) are taken first; batch jobs ({@code pmedia.render.jobs.batch})
 * fill the capacity realtime leaves idle. The batch consumer is paused while a realtime job waits or every slot has a
 * batch job lined up, so a realtime job waits behind at most the batch renders already running (one per slot), never
 * behind a batch backlog, and batch work uses every slot realtime does not.
 * <p>
 * One coordinator thread owns both Kafka consumers (one consumer group, {@code pmedia-render-workers}, for every
 * replica and both lanes): it polls them, hands jobs to the slots and commits a job's offset only after its render
 * ended and its result was acknowledged, and only up to the oldest job of the partition not yet done. A slot renders
 * its next job while the last one's outputs are stored and its result acknowledged, so no slot idles between renders.
 * A worker that dies mid-render leaves its jobs to be rendered again by another.
 */
@ApplicationScoped
public class RenderLanes {

    private static final Logger LOG = Logger.getLogger(RenderLanes.class);
    /** How long the coordinator waits for realtime work in one turn; also how soon a finished job is committed. */
    private static final Duration POLL = Duration.ofMillis(50);
    /** A coordinator turn longer than this means it is stuck (the readiness check says so). */
    private static final Duration STUCK = Duration.ofSeconds(60);

    /** A render that ended: its offset may be committed. */
    private record Finished(RenderLane lane, TopicPartition partition, long offset) {
    }

    private final RenderWorker worker;
    private final Traces traces;
    private final MediaConfig.Lanes config;
    private final Map<String, Object> kafka;
    private final LaneQueue queue = new LaneQueue();
    private final ConcurrentLinkedQueue<Finished> finished = new ConcurrentLinkedQueue<>();
    private final Map<RenderLane, AtomicInteger> rendering = new EnumMap<>(RenderLane.class);
    private volatile boolean running;
    private volatile long lastTurn;
    private Thread coordinator;
    private ExecutorService slots;
    /** Where the slots' rendered jobs are stored and published, one at a time per slot. */
    private ExecutorService stores;

    public RenderLanes(RenderWorker worker, Traces traces, MediaConfig config,
            @Identifier("default-kafka-broker") Map<String, Object> kafka, MeterRegistry registry) {
        this.worker = worker;
        this.traces = traces;
        this.config = config.render().lanes();
        this.kafka = kafka;
        for (RenderLane lane : RenderLane.values()) {
            AtomicInteger count = registry.gauge("pmedia.render.rendering", Tags.of("lane", lane.wire()),
                    new AtomicInteger());
            rendering.put(lane, count);
            registry.gauge("pmedia.render.waiting", Tags.of("lane", lane.wire()), queue, q -> q.waiting(lane));
        }
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.enabled()) {
            LOG.info("render lanes off: this process renders nothing (PMEDIA_MEDIA_ROLE=api)");
            return;
        }
        running = true;
        lastTurn = System.nanoTime();
        AtomicInteger slotNumber = new AtomicInteger();
        slots = Executors.newFixedThreadPool(config.slots(), work -> {
            Thread thread = new Thread(work, "render-slot-" + slotNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        AtomicInteger storeNumber = new AtomicInteger();
        stores = Executors.newFixedThreadPool(config.slots(), work -> {
            Thread thread = new Thread(work, "render-store-" + storeNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < config.slots(); i++) {
            slots.execute(this::renderJobs);
        }
        coordinator = new Thread(this::coordinate, "render-lanes");
        coordinator.setDaemon(true);
        coordinator.start();
    }

    /** Stops taking jobs; the renders running finish (and are committed) first, within the render time limit. */
    void onStop(@Observes ShutdownEvent event) throws InterruptedException {
        if (!running) {
            return;
        }
        running = false;
        coordinator.join(Duration.ofMinutes(3).toMillis());
    }

    /** Renders running now in {@code lane}. */
    public int rendering(RenderLane lane) {
        return rendering.get(lane).get();
    }

    /** Jobs of {@code lane} fetched and waiting for a free slot. */
    public int waiting(RenderLane lane) {
        return queue.waiting(lane);
    }

    /** Why this replica takes no render jobs although it should, if it does not. */
    public Optional<String> problem() {
        if (!config.enabled()) {
            return Optional.empty();
        }
        if (!running || coordinator == null || !coordinator.isAlive()) {
            return Optional.of("the render lanes are not running");
        }
        Duration turn = Duration.ofNanos(System.nanoTime() - lastTurn);
        return turn.compareTo(STUCK) > 0
                ? Optional.of("the render lanes' coordinator has not turned for " + turn.toSeconds() + " s")
                : Optional.empty();
    }

    // --- the coordinator -------------------------------------------------------------------------------------------

    private void coordinate() {
        try (Lane realtime = new Lane(RenderLane.REALTIME); Lane batch = new Lane(RenderLane.BATCH)) {
            while (running) {
                lastTurn = System.nanoTime();
                settle(realtime, batch);
                // Realtime first: fetched while fewer realtime jobs wait than there are slots to take them.
                realtime.fetch(queue.waiting(RenderLane.REALTIME) < config.slots(), POLL);
                // Batch only into idle capacity: paused while a realtime job waits, and one job lined up per slot at
                // most (so a slot never waits for the broker after a batch render, and no backlog builds up here).
                batch.fetch(queue.waiting(RenderLane.REALTIME) == 0
                        && queue.waiting(RenderLane.BATCH) < config.slots(), Duration.ZERO);
            }
            queue.close();
            slots.shutdown();
            if (slots.awaitTermination(config.stopWait().toMillis(), TimeUnit.MILLISECONDS)) {
                stores.shutdown(); // every slot has joined its last store
            } else {
                // the store threads stay for the slots still running (daemon threads: the process ends anyway)
                LOG.warn("renders still running at shutdown: their jobs will be rendered again by another worker");
            }
            settle(realtime, batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.errorf(e, "the render lanes stopped: %s", e.getMessage());
        }
    }

    /** Moves ended renders to their lane's offsets and commits what is done. */
    private void settle(Lane realtime, Lane batch) {
        for (Finished done = finished.poll(); done != null; done = finished.poll()) {
            (done.lane() == RenderLane.REALTIME ? realtime : batch).done(done.partition(), done.offset());
        }
        realtime.commit();
        batch.commit();
    }

    // --- the slots -------------------------------------------------------------------------------------------------

    /**
     * One slot: renders a job, then hands the storing of its outputs and the publishing of its result to a store
     * thread and renders its next job meanwhile; the job counts as finished (its offset may be committed) when the
     * broker acknowledged the result. At most one job per slot is being stored and acknowledged: the next is handed
     * over only after it, so a store or broker that is slow or away holds the slot back instead of piling work up.
     */
    private void renderJobs() {
        CompletableFuture<Void> storing = CompletableFuture.completedFuture(null);
        try {
            for (LaneQueue.Job next = queue.take(); next != null; next = queue.take()) {
                LaneQueue.Job job = next;
                AtomicInteger count = rendering.get(job.lane());
                count.incrementAndGet();
                Span span = renderSpan(job);
                CompletionStage<Void> acknowledged;
                try (Scope ignored = span.makeCurrent()) {
                    RenderWorker.Rendered rendered;
                    try {
                        rendered = worker.render(job.record().value(), job.lane());
                    } finally {
                        count.decrementAndGet();
                    }
                    storing.join();
                    acknowledged = rendered == null
                            ? CompletableFuture.completedFuture(null)
                            : CompletableFuture.supplyAsync(() -> {
                                try (Scope current = span.makeCurrent()) {
                                    return worker.publish(rendered.job(), worker.finish(rendered));
                                }
                            }, stores).thenCompose(published -> published);
                } catch (RuntimeException | Error e) {
                    // (never past the loop: a slot whose thread ended would leave every later job unanswered)
                    LOG.errorf(e, "render job at %s/%d: %s", job.record().topic(), job.record().offset(), e);
                    // chained after the previous job's store: one job per slot is stored at most, and the slot's last
                    // join covers both
                    acknowledged = storing.thenCompose(previous -> CompletableFuture.failedFuture(e));
                }
                storing = acknowledged.handle((ignored, failure) -> {
                    if (failure != null) {
                        Traces.failed(span, failure);
                        // The result could not be published (Kafka away past its delivery timeout): the producer's
                        // lost-render sweep submits the job again, as for a worker that died.
                        LOG.errorf("render job at %s/%d: no result published: %s", job.record().topic(),
                                job.record().offset(), failure.getMessage());
                    }
                    span.end();
                    finished.add(new Finished(job.lane(), job.partition(), job.record().offset()));
                    return (Void) null;
                }).toCompletableFuture();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the last job is stored and acknowledged before the slot ends, so the final commit at shutdown includes it
        storing.join();
    }

    /** The span of one job's render, a child of the trace context on its record (the request's trace). */
    private Span renderSpan(LaneQueue.Job job) {
        return traces.kafka("process", SpanKind.CONSUMER, job.record().topic(), job.record().key(),
                Traces.fromHeaders(job.record().headers()))
                .setAttribute("pmedia.render.lane", job.lane().wire())
                .startSpan();
    }

    // --- one lane's consumer ---------------------------------------------------------------------------------------

    /**
     * One lane's consumer and its offsets (coordinator thread only). A partition's offset is committed up to its
     * oldest job that was fetched and has not ended, so a job is never skipped, whatever order the slots end in.
     */
    private final class Lane implements ConsumerRebalanceListener, AutoCloseable {

        private final RenderLane lane;
        private final KafkaConsumer<String, String> consumer;
        /** Per partition: offsets fetched and not yet ended. */
        private final Map<TopicPartition, TreeSet<Long>> open = new HashMap<>();
        /** Per partition: the offset after the last one fetched. */
        private final Map<TopicPartition, Long> next = new HashMap<>();
        private final Map<TopicPartition, Long> committed = new HashMap<>();

        Lane(RenderLane lane) {
            this.lane = lane;
            Map<String, Object> props = new HashMap<>(kafka);
            props.put(ConsumerConfig.GROUP_ID_CONFIG, config.group());
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, "render-" + lane.wire() + "-" + UUID.randomUUID());
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.slots());
            // Partitions added to a lane's topic (RenderTopicSetup grows an auto-created one) are picked up within
            // 10 s, not the client default of 5 minutes during which jobs keyed to them would wait for a consumer.
            props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 10_000);
            // A worker that dies (kill -9, a lost node) gives its partitions to the others within 10 s, not 45 s.
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
            props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000);
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            consumer = new KafkaConsumer<>(props);
            consumer.subscribe(List.of(lane.topic()), this);
        }

        /** One poll: resumed when {@code wanted}, paused otherwise (a paused poll still keeps the group membership). */
        void fetch(boolean wanted, Duration timeout) {
            if (wanted) {
                consumer.resume(consumer.assignment());
            } else {
                consumer.pause(consumer.assignment());
            }
            for (ConsumerRecord<String, String> record : consumer.poll(timeout)) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                open.computeIfAbsent(partition, p -> new TreeSet<>()).add(record.offset());
                next.put(partition, record.offset() + 1);
                queue.add(new LaneQueue.Job(lane, record));
            }
        }

        void done(TopicPartition partition, long offset) {
            TreeSet<Long> offsets = open.get(partition);
            if (offsets != null) {
                offsets.remove(offset);
            }
        }

        void commit() {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            next.forEach((partition, after) -> {
                TreeSet<Long> pending = open.get(partition);
                long upTo = pending == null || pending.isEmpty() ? after : pending.first();
                if (upTo > committed.getOrDefault(partition, -1L)) {
                    offsets.put(partition, new OffsetAndMetadata(upTo));
                }
            });
            if (offsets.isEmpty()) {
                return;
            }
            try {
                consumer.commitSync(offsets);
                offsets.forEach((partition, offset) -> committed.put(partition, offset.offset()));
            } catch (KafkaException e) {
                // A rebalance took the partitions (their new owner renders the uncommitted jobs again) or the broker
                // is away: tried again on the next turn.
                LOG.debugf("render lane %s: offsets not committed yet: %s", lane.wire(), e.getMessage());
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            for (Finished done : finished) {
                if (done.lane() == lane) {
                    done(done.partition(), done.offset());
                }
            }
            commit();
            forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // Offsets start from what the group committed; nothing to prepare.
        }

        /** Jobs of partitions taken away are dropped unstarted; their new owner fetches them from the commit on. */
        private void forget(Collection<TopicPartition> partitions) {
            queue.drop(lane, partitions);
            partitions.forEach(partition -> {
                open.remove(partition);
                next.remove(partition);
                committed.remove(partition);
            });
        }

        @Override
        public void close() {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }
}
