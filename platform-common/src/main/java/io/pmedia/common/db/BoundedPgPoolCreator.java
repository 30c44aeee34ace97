package io.pmedia.common.db;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * Creates every service's reactive PostgreSQL pool as Quarkus configures it, plus the bounds of {@link DatabaseBounds}
 * on connecting, on waiting for a connection and on the number waiting, so that an unreachable database costs a
 * request seconds, not minutes. The wait is bounded by {@link BoundedPool}, not by Vert.x, whose own bound loses
 * connections. {@link PgPoolCreator} is Quarkus' hook for pool options it has no properties for.
 */
@Singleton
public class BoundedPgPoolCreator implements PgPoolCreator {

    private final DatabaseBounds bounds;

    public BoundedPgPoolCreator(DatabaseBounds bounds) {
        this.bounds = bounds;
    }

    @Override
    @SuppressWarnings("deprecation") // Quarkus 3.34 casts what a creator returns to PgPool; Pool alone fails.
    public Pool create(Input input) {
        PoolOptions pool = input.poolOptions()
                .setConnectionTimeout(0)
                .setMaxWaitQueueSize(bounds.maxWaiting());
        List<PgConnectOptions> servers = input.pgConnectOptionsList();
        servers.forEach(server -> server.setConnectTimeout((int) bounds.connectTimeout().toMillis()));
        return new BoundedPool(PgPool.pool(input.vertx(), servers, pool), input.vertx(), bounds.acquireTimeout());
    }
}
