package io.pmedia.common.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pmedia.common.error.ConnectionWaitTimeout;
import io.pmedia.common.error.Outages;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.impl.VertxInternal;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * The pool every service gets from {@link BoundedPgPoolCreator}, on the real PostgreSQL server, with one connection
 * so that a held connection exhausts it: a wait is bounded, and a connection that reaches a waiter who gave up is
 * not lost.
 */
class BoundedPoolTest {

    /** Long enough for a first connection (TCP, SCRAM, a cold JVM) on a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(2);

    private Vertx vertx;

    @BeforeEach
    void startVertx() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(3));
    }

    @AfterEach
    void stopVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /**
     * Vert.x's own bound lost the connection here. A connection is handed to a waiter on the event loop that created
     * it; while that loop is busy, the waiter's bound ran out, Vert.x asked the pool to cancel the waiter, the pool
     * (which had already served it) answered "cancelled", and the caller was failed; the connection then arrived at a
     * promise already failed, and stayed leased for good. The order is forced here: the creating loop is held while
     * the connection is returned to the waiter and until the waiter's bound has run out.
     */
    @Test
    void aConnectionServedToAWaiterWhoGaveUpGoesBackToThePool() throws Exception {
        PgPool pool = pool(1, 16, BOUND);
        List<Context> loops = distinctEventLoops(3);
        Context creator = loops.get(0);
        await(onContext(creator, () -> pool.getConnection().compose(SqlConnection::close)));
        SqlConnection held = await(onContext(loops.get(1), pool::getConnection));
        CountDownLatch creatorBusy = new CountDownLatch(1);
        CountDownLatch waiterGaveUp = new CountDownLatch(1);
        creator.runOnContext(ignored -> {
            creatorBusy.countDown();
            awaitQuietly(waiterGaveUp);
        });
        assertThat(creatorBusy.await(10, TimeUnit.SECONDS)).isTrue();

        Future<SqlConnection> waiter = await(onContext(loops.get(2), () -> {
            Future<SqlConnection> waiting = pool.getConnection();
            held.close();
            return Future.succeededFuture(waiting);
        }));
        assertThatThrownBy(() -> await(waiter)).hasCauseInstanceOf(ConnectionWaitTimeout.class);
        waiterGaveUp.countDown();

        SqlConnection next = await(pool.getConnection());
        assertThat(await(next.query("SELECT 1").execute()).iterator().next().getInteger(0)).isEqualTo(1);
        await(next.close());
    }

    @Test
    void aQueryGivenToThePoolWaitsNoLongerThanTheBoundAndRunsOnceAConnectionIsFree() throws Exception {
        PgPool pool = pool(1, 16, BOUND);
        SqlConnection held = await(pool.getConnection());

        assertThatThrownBy(() -> await(pool.query("SELECT 1").execute()))
                .hasCauseInstanceOf(ConnectionWaitTimeout.class)
                .satisfies(failure -> assertThat(Outages.isUnreachableDependency(failure)).isTrue());
        assertThatThrownBy(() -> await(pool.withTransaction(connection -> connection.query("SELECT 1").execute())))
                .hasCauseInstanceOf(ConnectionWaitTimeout.class);

        await(held.close());
        assertThat(await(pool.preparedQuery("SELECT $1::int").execute(Tuple.of(7)))
                .iterator().next().getInteger(0)).isEqualTo(7);
        assertThat(await(pool.query("SELECT 2").mapping(row -> row.getInteger(0)).execute()).iterator().next())
                .isEqualTo(2);
    }

    @Test
    void aWaiterBeyondTheQueuesBoundIsRefusedAtOnceAsAnOutage() throws Exception {
        PgPool pool = pool(1, 1, BOUND);
        SqlConnection held = await(pool.getConnection());
        Future<SqlConnection> queued = pool.getConnection();

        assertThatThrownBy(() -> await(pool.getConnection()))
                .hasCauseInstanceOf(ConnectionPoolTooBusyException.class)
                .satisfies(failure -> assertThat(Outages.isUnreachableDependency(failure)).isTrue());

        await(held.close());
        await(await(queued).close());
    }

    private PgPool pool(int size, int maxWaiting, Duration bound) {
        TestDatabase server = TestDatabase.fromEnvironment();
        PgConnectOptions database = new PgConnectOptions().setHost(server.host()).setPort(server.port())
                .setDatabase("postgres").setUser(server.user()).setPassword(server.password());
        DatabaseBounds bounds = new DatabaseBounds() {
            @Override
            public Duration connectTimeout() {
                return Duration.ofSeconds(2);
            }

            @Override
            public Duration acquireTimeout() {
                return bound;
            }

            @Override
            public int maxWaiting() {
                return maxWaiting;
            }
        };
        PoolOptions options = new PoolOptions().setMaxSize(size);
        return (PgPool) new BoundedPgPoolCreator(bounds).create(new PgPoolCreator.Input() {
            @Override
            public Vertx vertx() {
                return vertx;
            }

            @Override
            public PoolOptions poolOptions() {
                return options;
            }

            @Override
            public List<PgConnectOptions> pgConnectOptionsList() {
                return List.of(database);
            }
        });
    }

    /** {@code count} event-loop contexts, each on a thread of its own. */
    private List<Context> distinctEventLoops(int count) throws Exception {
        List<Context> contexts = new ArrayList<>();
        Set<Thread> threads = new HashSet<>();
        for (int tries = 0; contexts.size() < count && tries < 4 * count; tries++) {
            Context context = ((VertxInternal) vertx).createEventLoopContext();
            if (threads.add(await(onContext(context, () -> Future.succeededFuture(Thread.currentThread()))))) {
                contexts.add(context);
            }
        }
        assertThat(contexts).hasSize(count);
        return contexts;
    }

    private static <T> Future<T> onContext(Context context, Supplier<Future<T>> work) {
        Promise<T> promise = Promise.promise();
        context.runOnContext(ignored -> work.get().onComplete(promise));
        return promise.future();
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
