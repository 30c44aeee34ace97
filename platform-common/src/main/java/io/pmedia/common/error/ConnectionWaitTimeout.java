package io.pmedia.common.error;

import java.time.Duration;

import io.vertx.core.VertxException;

/**
 * No database connection could be had within the pool's bound ({@code pmedia.datasource.acquire-timeout}, kept by
 * {@code db/BoundedPool}): an outage to {@link Outages}, answered 503.
 */
public final class ConnectionWaitTimeout extends VertxException {

    private static final long serialVersionUID = 1L;

    public ConnectionWaitTimeout(Duration bound) {
        super("no database connection within " + bound.toMillis() + " ms", true);
    }
}
