package io.pmedia.common.db;

import java.time.Duration;

import io.vertx.core.VertxException;

/** No connection could be had from the pool within its bound ({@link DatabaseBounds#acquireTimeout()}). */
public final class ConnectionWaitTimeout extends VertxException {

    private static final long serialVersionUID = 1L;

    public ConnectionWaitTimeout(Duration bound) {
        super("no database connection within " + bound.toMillis() + " ms", true);
    }
}
