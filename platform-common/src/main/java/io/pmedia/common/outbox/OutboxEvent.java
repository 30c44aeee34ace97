package io.pmedia.common.outbox;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of the transactional outbox: one CloudEvent waiting to be published to its topic. */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "event_id", nullable = false, unique = true)
    public UUID eventId;

    @Column(nullable = false)
    public String topic;

    @Column(name = "record_key", nullable = false)
    public String recordKey;

    @Column(nullable = false)
    public String payload;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The W3C traceparent of the span that wrote the event; null when tracing is off. */
    @Column(name = "trace_parent")
    public String traceParent;
}
