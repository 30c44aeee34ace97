package io.pmedia.common.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.pmedia.common.tracing.Traces;
import io.pmedia.events.CloudEvent;
import io.pmedia.events.EventCodec;
import io.pmedia.events.EventPayload;
import io.smallrye.mutiny.Uni;

/**
 * The one way a service publishes an event: the typed payload goes into its CloudEvents envelope (source
 * {@code /pmedia/<application name>}) and into the transactional outbox, on the payload's own topic and key, with the
 * trace context of the current span (the relay sends it on as the record's {@code traceparent}). Call it
 * inside the same reactive transaction as the state change ({@code @WithTransaction}): either both are committed or
 * neither is; {@link OutboxRelay} publishes afterwards.
 */
@ApplicationScoped
public class EventPublisher {

    private final EventCodec codec;
    private final String source;
    /** The topics this service declared ({@link OutboxConfig#topics()}); empty: any. */
    private final Optional<Set<String>> topics;

    public EventPublisher(EventCodec codec, String application) {
        this(codec, application, Optional.empty());
    }

    @Inject
    public EventPublisher(EventCodec codec, @ConfigProperty(name = "quarkus.application.name") String application,
            OutboxConfig config) {
        this(codec, application, config.topics());
    }

    private EventPublisher(EventCodec codec, String application, Optional<Set<String>> topics) {
        this.codec = codec;
        this.source = "/pmedia/" + application;
        this.topics = topics;
    }

    /** Refuses an event on a topic the service did not declare: its KafkaUser in the cluster could not write it. */
    private void declared(EventPayload payload) {
        if (topics.isPresent() && !topics.get().contains(payload.topic())) {
            throw new IllegalStateException(payload.type() + " goes to " + payload.topic()
                    + ", which is not in pmedia.outbox.topics " + topics.get());
        }
    }

    public Uni<Void> publish(EventPayload payload) {
        declared(payload);
        CloudEvent event = codec.envelope(source, payload);
        OutboxEvent row = new OutboxEvent();
        row.eventId = UUID.fromString(event.id());
        row.topic = payload.topic();
        row.recordKey = payload.key();
        row.createdAt = Instant.now();
        row.payload = codec.json(event);
        row.traceParent = Traces.currentParent();
        return row.persist().replaceWithVoid();
    }

    /**
     * The same inside the caller's JDBC transaction on {@code connection}: for the few writes that stream rows through
     * the driver (batch-service's COPY of a task's rows), which a reactive session cannot share.
     */
    public void publish(Connection connection, EventPayload payload) throws SQLException {
        declared(payload);
        // written in one pass: this path carries the large events (a batch task's share pages, a few hundred rows each)
        EventCodec.Text event = codec.text(source, payload);
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO outbox_event (event_id, topic, record_key, payload, created_at, trace_parent)"
                        + " VALUES (?, ?, ?, ?, ?, ?)")) {
            insert.setObject(1, UUID.fromString(event.id()));
            insert.setString(2, payload.topic());
            insert.setString(3, payload.key());
            insert.setString(4, event.json());
            insert.setTimestamp(5, Timestamp.from(Instant.now()));
            insert.setString(6, Traces.currentParent());
            insert.executeUpdate();
        }
    }
}
