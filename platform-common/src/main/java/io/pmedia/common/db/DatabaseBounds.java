package io.pmedia.common.db;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How long a request may wait for PostgreSQL before it is answered 503 (docs/security.md, "Outages"). The reactive
 * pool has no Quarkus properties for these; {@link BoundedPgPoolCreator} applies them.
 */
@ConfigMapping(prefix = "pmedia.datasource")
public interface DatabaseBounds {

    /** Setting up one TCP connection to the server (an address that drops packets would otherwise take 60 s). */
    @WithDefault("2s")
    Duration connectTimeout();

    /**
     * Waiting for a pooled connection, the set-up of a new one (TCP, TLS, authentication) included: the bound on a
     * server that accepts connections and never answers, or a pool that stays exhausted (default: 30 s).
     */
    @WithDefault("3s")
    Duration acquireTimeout();

    /**
     * Requests waiting for a connection at most; one more is answered 503 at once. It bounds what a database that
     * stopped answering piles up: a request that gave up after {@link #acquireTimeout()} stays in the pool's queue
     * until a connection frees up for it, and gives that connection straight back.
     */
    @WithDefault("1024")
    int maxWaiting();
}
