package io.pmedia.common.error;

import java.net.BindException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;

import io.vertx.core.VertxException;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

/**
 * Tells a dependency that cannot be reached right now (PostgreSQL stopped, refusing, out of connections, or slower to
 * hand out a connection than the pool's wait bound) from a fault in the service, so that the caller gets 503
 * {@code SERVICE_UNAVAILABLE} with {@code Retry-After} and not 500. The failure may arrive wrapped at any depth by
 * Hibernate Reactive, Mutiny or a JDBC pool; the whole cause chain is looked at. A socket failure of any kind
 * (refused, no route, reset by a server going down mid-statement) means the same thing.
 */
public final class Outages {

    /** About the time readiness needs to notice a dependency is back; callers should not come back sooner. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);
    static final String MESSAGE = "service temporarily unavailable: a system it depends on cannot be reached;"
            + " retry later";

    /**
     * The Vert.x SQL pool's failures when no connection could be had within its own wait bound (ours is
     * {@link ConnectionWaitTimeout}, as a pool of another creator may still have it): a bare
     * {@code NoStackTraceThrowable("Timeout")} for a request waiting for a connection, a {@code VertxException} for a
     * query sent to the pool itself. Neither has a type of its own to test for.
     */
    private static final String POOL_WAIT_TIMEOUT = "Timeout";
    private static final String POOL_QUERY_TIMEOUT = "Timeout waiting for connection";
    /** The Vert.x SQL client's failure for a statement sent on a connection the server has just closed. */
    private static final String CONNECTION_CLOSED = "Connection is not active now";
    private static final int MAX_DEPTH = 32;

    private Outages() {
    }

    /** The 503 answer for {@code failure} when it means an unreachable dependency; null otherwise. */
    public static ApiException unavailable(Throwable failure) {
        return isUnreachableDependency(failure)
                ? new ApiException(ErrorCode.SERVICE_UNAVAILABLE, MESSAGE, RETRY_AFTER)
                : null;
    }

    public static boolean isUnreachableDependency(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable cause = failure; cause != null && seen.size() < MAX_DEPTH
                && seen.put(cause, Boolean.TRUE) == null; cause = cause.getCause()) {
            if (unreachable(cause)) {
                return true;
            }
        }
        return false;
    }

    private static boolean unreachable(Throwable cause) {
        if (cause instanceof SocketException && !(cause instanceof BindException)
                || cause instanceof ConnectionWaitTimeout
                || cause instanceof ConnectionPoolTooBusyException
                || cause instanceof ClosedConnectionException
                || cause instanceof SQLTransientConnectionException
                || cause instanceof SQLNonTransientConnectionException) {
            return true;
        }
        if (cause instanceof PgException pg) {
            return unavailableState(pg.getSqlState());
        }
        if (cause instanceof SQLException sql) {
            return unavailableState(sql.getSQLState());
        }
        if (cause instanceof NoStackTraceThrowable && cause.getMessage() != null) {
            return cause.getMessage().equals(POOL_WAIT_TIMEOUT) || cause.getMessage().startsWith(CONNECTION_CLOSED);
        }
        return cause instanceof VertxException && POOL_QUERY_TIMEOUT.equals(cause.getMessage());
    }

    /**
     * SQLSTATEs that mean the server cannot serve anyone right now: class 08 (connection exception), 53300 (too
     * many connections), 57P01-57P03 (shutting down, crashed, starting up). Everything else is about the statement.
     */
    private static boolean unavailableState(String state) {
        return state != null && (state.startsWith("08") || state.equals("53300") || state.equals("57P01")
                || state.equals("57P02") || state.equals("57P03"));
    }
}
