package io.pmedia.common.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;

/**
 * Publishes outbox rows to Kafka. Woken by PostgreSQL {@code NOTIFY} when a transaction commits an event, and by a
 * periodic poll as a safety net. One relay across all replicas publishes at a time (a transaction-scoped advisory
 * lock), in id order, so events of one resource keep their order. A row is deleted only after the broker
 * acknowledged it: a Kafka outage delays events and loses none; a crash between ack and delete publishes a row
 * twice, which consumers absorb because they are idempotent on the event id.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    /** Advisory lock key shared by every replica of a service ("pmedia-outbox"). */
    private static final long LOCK_KEY = 0x706d_6564_6961_6f62L;
    private static final String CHANNEL = "pmedia_outbox";

    private final Pool pool;
    private final Vertx vertx;
    private final OutboxConfig config;
    private final Config rawConfig;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile Producer<String, String> producer;
    private PgSubscriber subscriber;

    public OutboxRelay(Pool pool, Vertx vertx, OutboxConfig config, Config rawConfig) {
        this.pool = pool;
        this.vertx = vertx;
        this.config = config;
        this.rawConfig = rawConfig;
    }

    void start(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        producer = new KafkaProducer<>(producerProperties());
        subscriber = PgSubscriber.subscriber(vertx, connectOptions());
        subscriber.reconnectPolicy(attempt -> 1000L);
        subscriber.channel(CHANNEL).handler(payload -> requestDrain());
        subscriber.connect().subscribe().with(ignored -> requestDrain(),
                failure -> LOG.warnf("outbox relay cannot LISTEN yet (%s); polling meanwhile", failure.getMessage()));
    }

    void stop(@Observes ShutdownEvent event) {
        if (subscriber != null) {
            subscriber.closeAndAwait();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }

    @Scheduled(every = "${pmedia.outbox.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        requestDrain();
    }

    /** Publishes what is pending now; safe to call from anywhere, any number of times. */
    public void requestDrain() {
        if (producer == null) {
            return;
        }
        again.set(true);
        if (draining.compareAndSet(false, true)) {
            runDrain();
        }
    }

    private void runDrain() {
        again.set(false);
        drainOnce().subscribe().with(published -> {
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

    /** One transaction: take the lock, read a batch, publish it, delete it. Returns how many rows were published. */
    Uni<Integer> drainOnce() {
        return pool.withTransaction(conn -> conn.query("SELECT pg_try_advisory_xact_lock(" + LOCK_KEY + ")")
                .execute()
                .flatMap(locked -> locked.iterator().next().getBoolean(0)
                        ? publishBatch(conn)
                        : Uni.createFrom().item(0)));
    }

    private Uni<Integer> publishBatch(SqlConnection conn) {
        return conn.preparedQuery("SELECT id, topic, record_key, payload FROM outbox_event ORDER BY id LIMIT $1")
                .execute(Tuple.of(config.batchSize()))
                .flatMap(rows -> {
                    List<Row> batch = new ArrayList<>();
                    rows.forEach(batch::add);
                    if (batch.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    Long[] ids = batch.stream().map(row -> row.getLong("id")).toArray(Long[]::new);
                    return Uni.createFrom().item(() -> send(batch))
                            .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                            .flatMap(sent -> conn.preparedQuery("DELETE FROM outbox_event WHERE id = ANY($1)")
                                    .execute(Tuple.of(ids)))
                            .replaceWith(batch.size());
                });
    }

    /** Sends a batch and waits until the broker acknowledged every record (runs on a worker thread). */
    private int send(List<Row> batch) {
        Producer<String, String> current = producer;
        if (current == null) {
            throw new IllegalStateException("outbox relay is stopping");
        }
        List<Future<RecordMetadata>> acks = new ArrayList<>(batch.size());
        for (Row row : batch) {
            ProducerRecord<String, String> record = new ProducerRecord<>(row.getString("topic"),
                    row.getString("record_key"), row.getString("payload"));
            record.headers().add("content-type",
                    "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
            acks.add(current.send(record));
        }
        try {
            for (Future<RecordMetadata> ack : acks) {
                ack.get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka did not acknowledge: " + e.getMessage(), e);
        }
        return batch.size();
    }

    private Properties producerProperties() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                rawConfig.getOptionalValue("kafka.bootstrap.servers", String.class).orElse("127.0.0.1:9092"));
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "pmedia-outbox-"
                + rawConfig.getOptionalValue("quarkus.application.name", String.class).orElse("service"));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    private PgConnectOptions connectOptions() {
        String url = rawConfig.getValue("quarkus.datasource.reactive.url", String.class)
                .replaceFirst("^vertx-reactive:", "");
        PgConnectOptions options = PgConnectOptions.fromUri(url);
        rawConfig.getOptionalValue("quarkus.datasource.username", String.class).ifPresent(options::setUser);
        rawConfig.getOptionalValue("quarkus.datasource.password", String.class).ifPresent(options::setPassword);
        return options;
    }
}
