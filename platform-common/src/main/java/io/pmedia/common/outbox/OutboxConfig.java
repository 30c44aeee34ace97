package io.pmedia.common.outbox;

import java.util.Optional;
import java.util.Set;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the outbox relay; a service that publishes nothing sets {@code pmedia.outbox.enabled=false}. */
@ConfigMapping(prefix = "pmedia.outbox")
public interface OutboxConfig {

    /** Whether this service runs a relay (needs {@code kafka.bootstrap.servers}). */
    @WithDefault("true")
    boolean enabled();

    /**
     * Every topic this service publishes through its outbox ({@code pmedia.outbox.topics}, a comma-separated list).
     * {@link EventPublisher} refuses an event on any other topic, so the list is what the code does; the Kubernetes
     * checks (deploy-checks) read it to prove each role's KafkaUser may write exactly these. Unset: any topic (tests
     * of this module, benchmarks).
     */
    Optional<Set<String>> topics();

    /**
     * Where the relay LISTENs for new rows: a session of its own on PostgreSQL itself, never through a transaction
     * pooler (which would drop the LISTEN between transactions). Unset: the reactive datasource's URL.
     */
    Optional<String> listenUrl();

    /** Most rows published per transaction. */
    @WithDefault("500")
    int batchSize();
}
