package io.pmedia.common.outbox;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.pgclient.PgConnectOptions;

/**
 * Publishes outbox rows to Kafka. Woken by PostgreSQL {@code NOTIFY} when a transaction commits an event, and by a
 * periodic poll as a safety net. Each round: take the relay lease and read a batch in id order (one short
 * transaction), send it and wait for the broker's acknowledgements holding no transaction, lock or connection, then
 * delete what was acknowledged and give the lease back (another short transaction).
 * <p>
 * At least once: a row is deleted only after the broker acknowledged it, so a Kafka outage delays events and loses
 * none; a crash between acknowledgement and delete publishes a row twice, which consumers absorb because they are
 * idempotent on the event id. Order per key: every relay sends in id order and a row goes only after all earlier
 * rows were acknowledged or are in the same batch, so even a relay whose lease ran out mid-batch can only repeat
 * earlier events, never overtake them. The lease keeps the replicas from publishing the same rows side by side.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final String CHANNEL = "pmedia_outbox";
    /** Longer than a batch may take (the sender's acknowledgement timeout), so a live relay keeps it to the end. */
    static final Duration LEASE = KafkaOutboxSender.ACK_TIMEOUT.multipliedBy(2);

    private final OutboxStore store;
    private final OutboxSender sender;
    private final Vertx vertx;
    private final OutboxConfig config;
    private final Config rawConfig;
    /** This replica's name on the lease. */
    private final UUID holder = UUID.randomUUID();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean running;
    private PgSubscriber subscriber;
    private final MeterRegistry registry;
    /** Seconds the oldest unpublished event has waited, as of the last poll (the alert PmediaOutboxBacklog). */
    private volatile double oldestAge;

    public OutboxRelay(OutboxStore store, OutboxSender sender, Vertx vertx, OutboxConfig config, Config rawConfig,
            MeterRegistry registry) {
        this.store = store;
        this.sender = sender;
        this.vertx = vertx;
        this.config = config;
        this.rawConfig = rawConfig;
        this.registry = registry;
    }

    void start(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        running = true;
        Gauge.builder("pmedia.outbox.oldest.event.age", this, relay -> relay.oldestAge).baseUnit("seconds")
                .description("How long the oldest event not yet published to Kafka has waited in the outbox")
                .register(registry);
        subscriber = PgSubscriber.subscriber(vertx, connectOptions());
        subscriber.reconnectPolicy(attempt -> 1000L);
        subscriber.channel(CHANNEL).handler(payload -> requestDrain());
        subscriber.connect().subscribe().with(ignored -> requestDrain(),
                failure -> LOG.warnf("outbox relay cannot LISTEN yet (%s); polling meanwhile", failure.getMessage()));
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (subscriber != null) {
            subscriber.closeAndAwait();
        }
    }

    @Scheduled(every = "${pmedia.outbox.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        requestDrain();
        if (running) {
            store.oldestAgeSeconds().subscribe().with(age -> oldestAge = age,
                    failure -> LOG.debugf("outbox age not read (%s)", failure.getMessage()));
        }
    }

    /** Publishes what is pending now; safe to call from anywhere, any number of times. */
    public void requestDrain() {
        if (!running) {
            return;
        }
        again.set(true);
        if (draining.compareAndSet(false, true)) {
            runDrain();
        }
    }

    /**
     * One round at a time. A round that never ends (a database or broker client that loses an answer) is given up
     * after the lease, so the relay cannot stall for good; its rows go again in a later round, which consumers
     * absorb.
     */
    private void runDrain() {
        again.set(false);
        drainOnce().ifNoItem().after(LEASE).failWith(() -> new IllegalStateException(
                "no answer from the database or the broker within " + LEASE.toSeconds() + " s"))
                .subscribe().with(published -> {
                    if (published >= config.batchSize()) {
                        again.set(true);
                    }
                    finish();
                }, failure -> {
                    LOG.warnf("outbox relay could not publish (%s); retrying on the next poll", failure.getMessage());
                    again.set(false);
                    finish();
                });
    }

    private void finish() {
        draining.set(false);
        if (again.get() && draining.compareAndSet(false, true)) {
            runDrain();
        }
    }

    /** One round: claim a batch, send it, mark it sent. Returns how many rows were published. */
    Uni<Integer> drainOnce() {
        return store.claim(holder, LEASE, config.batchSize()).flatMap(batch -> batch.isEmpty()
                ? Uni.createFrom().item(0)
                : sender.send(batch)
                        .onFailure().call(failure -> store.release(holder)
                                .onFailure().invoke(e -> LOG.debugf("outbox lease not given back (%s); it runs out",
                                        e.getMessage()))
                                .onFailure().recoverWithNull())
                        .call(() -> store.markSent(holder, batch))
                        .replaceWith(batch.size()));
    }

    private PgConnectOptions connectOptions() {
        String url = config.listenUrl().orElseGet(() -> rawConfig.getValue("quarkus.datasource.reactive.url",
                String.class)).replaceFirst("^vertx-reactive:", "");
        PgConnectOptions options = PgConnectOptions.fromUri(url);
        rawConfig.getOptionalValue("quarkus.datasource.username", String.class).ifPresent(options::setUser);
        rawConfig.getOptionalValue("quarkus.datasource.password", String.class).ifPresent(options::setPassword);
        return options;
    }
}
