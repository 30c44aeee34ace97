package io.pmedia.common.db;

import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * Creates every service's reactive PostgreSQL pool as Quarkus configures it, plus the bounds of {@link DatabaseBounds}
 * on connecting and on waiting for a connection, so that an unreachable database costs a request seconds, not
 * minutes. {@link PgPoolCreator} is Quarkus' hook for pool options it has no properties for.
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
                .setConnectionTimeout((int) bounds.acquireTimeout().toMillis())
                .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
        List<PgConnectOptions> servers = input.pgConnectOptionsList();
        servers.forEach(server -> server.setConnectTimeout((int) bounds.connectTimeout().toMillis()));
        return PgPool.pool(input.vertx(), servers, pool);
    }
}
