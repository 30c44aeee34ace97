package io.pmedia.common.db;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collector;

import io.pmedia.common.error.ConnectionWaitTimeout;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Query;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.Tuple;

/**
 * A PostgreSQL pool whose every acquisition waits at most a bound and never loses a connection that comes after it.
 *
 * <p>
 * Vert.x's own bound ({@code PoolOptions.connectionTimeout}) loses connections under load (Vert.x 4.5): when it
 * expires it cancels the waiter, and the pool answers "cancelled" also for a waiter it has just served with a
 * connection returned by someone else. The caller is failed with "Timeout", the connection handed to it is dropped,
 * and it stays leased for good; a pool that times out acquisitions while it is busy recycling shrinks until nothing
 * is left (docs/decisions.md, "A pool that never loses a connection"). So the pool under this one runs without that
 * bound, and this one keeps its own: the caller is failed when the bound passes, the waiter stays queued, and a
 * connection that reaches it afterwards is given straight back.
 *
 * <p>
 * Everything that takes a connection goes through {@link #getConnection()}: Hibernate Reactive does, the
 * transactions and connections of {@link io.vertx.sqlclient.Pool}'s default methods do, and so do the queries sent to
 * the pool itself ({@link #query}, {@link #preparedQuery}), which run on a connection of their own here.
 */
final class BoundedPool implements PgPool {

    private final PgPool pool;
    private final Vertx vertx;
    private final Duration bound;

    BoundedPool(PgPool pool, Vertx vertx, Duration bound) {
        this.pool = pool;
        this.vertx = vertx;
        this.bound = bound;
    }

    @Override
    public Future<SqlConnection> getConnection() {
        // The pool under this one serves the caller on this same context (Vert.x keeps one per outside thread too).
        ContextInternal context = (ContextInternal) vertx.getOrCreateContext();
        Promise<SqlConnection> answer = context.promise();
        long timer = context.setTimer(bound.toMillis(), ignored -> answer.tryFail(new ConnectionWaitTimeout(bound)));
        pool.getConnection().onComplete(served -> {
            vertx.cancelTimer(timer);
            if (served.failed()) {
                answer.tryFail(served.cause());
            } else if (!answer.tryComplete(served.result())) {
                served.result().close();
            }
        });
        return answer.future();
    }

    @Override
    public void getConnection(Handler<AsyncResult<SqlConnection>> handler) {
        getConnection().onComplete(handler);
    }

    @Override
    public Query<RowSet<Row>> query(String sql) {
        return new OwnConnectionQuery<>(this, connection -> connection.query(sql));
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql) {
        return new OwnConnectionPreparedQuery<>(this, connection -> connection.preparedQuery(sql));
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql, PrepareOptions options) {
        return new OwnConnectionPreparedQuery<>(this, connection -> connection.preparedQuery(sql, options));
    }

    @Override
    public PgPool connectHandler(Handler<SqlConnection> handler) {
        pool.connectHandler(handler);
        return this;
    }

    @Override
    public PgPool connectionProvider(Function<io.vertx.core.Context, Future<SqlConnection>> provider) {
        pool.connectionProvider(provider);
        return this;
    }

    @Override
    public int size() {
        return pool.size();
    }

    @Override
    public void close(Handler<AsyncResult<Void>> handler) {
        pool.close(handler);
    }

    @Override
    public Future<Void> close() {
        return pool.close();
    }

    /** A query given to the pool: it runs on a connection acquired for it within the bound, returned afterwards. */
    private record OwnConnectionQuery<T>(BoundedPool pool, Function<SqlConnection, Query<T>> on)
            implements
                Query<T> {

        @Override
        public Future<T> execute() {
            return pool.withConnection(connection -> on.apply(connection).execute());
        }

        @Override
        public void execute(Handler<AsyncResult<T>> handler) {
            execute().onComplete(handler);
        }

        @Override
        public <R> Query<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
            return new OwnConnectionQuery<>(pool, connection -> on.apply(connection).collecting(collector));
        }

        @Override
        public <U> Query<RowSet<U>> mapping(Function<Row, U> mapper) {
            return new OwnConnectionQuery<>(pool, connection -> on.apply(connection).mapping(mapper));
        }
    }

    /** The same for a prepared query. */
    private record OwnConnectionPreparedQuery<T>(BoundedPool pool, Function<SqlConnection, PreparedQuery<T>> on)
            implements
                PreparedQuery<T> {

        @Override
        public Future<T> execute() {
            return pool.withConnection(connection -> on.apply(connection).execute());
        }

        @Override
        public void execute(Handler<AsyncResult<T>> handler) {
            execute().onComplete(handler);
        }

        @Override
        public Future<T> execute(Tuple arguments) {
            return pool.withConnection(connection -> on.apply(connection).execute(arguments));
        }

        @Override
        public void execute(Tuple arguments, Handler<AsyncResult<T>> handler) {
            execute(arguments).onComplete(handler);
        }

        @Override
        public Future<T> executeBatch(List<Tuple> batch) {
            return pool.withConnection(connection -> on.apply(connection).executeBatch(batch));
        }

        @Override
        public void executeBatch(List<Tuple> batch, Handler<AsyncResult<T>> handler) {
            executeBatch(batch).onComplete(handler);
        }

        @Override
        public <R> PreparedQuery<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
            return new OwnConnectionPreparedQuery<>(pool, connection -> on.apply(connection).collecting(collector));
        }

        @Override
        public <U> PreparedQuery<RowSet<U>> mapping(Function<Row, U> mapper) {
            return new OwnConnectionPreparedQuery<>(pool, connection -> on.apply(connection).mapping(mapper));
        }
    }
}
