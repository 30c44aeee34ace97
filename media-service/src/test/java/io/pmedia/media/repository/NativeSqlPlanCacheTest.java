package io.pmedia.media.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import jakarta.inject.Inject;

import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.reactive.mutiny.Mutiny;
import org.junit.jupiter.api.Test;

import io.quarkus.arc.ClientProxy;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;

/**
 * Hibernate Reactive's native queries never find their plan in Hibernate's query plan cache (their result mapping has
 * no equals), so with the cache on, each execution of one SQL text added an entry under the same hash until the
 * cache was full, and every query then compared itself against all of them. The platform turns that cache off
 * (platform-common's configuration): running a query again must leave the plan cache as it was.
 */
@QuarkusTest
class NativeSqlPlanCacheTest {

    @Inject
    Mutiny.SessionFactory sessions;

    @Inject
    MediaRequestStore requests;

    @Test
    void runningANativeQueryAgainAddsNothingToThePlanCache() throws Throwable {
        var plans = factory().getQueryEngine().getInterpretationCache();
        UUID client = UUID.randomUUID();
        findOwned(client);
        int before = plans.getNumberOfCachedQueryPlans();
        for (int i = 0; i < 20; i++) {
            findOwned(client);
        }
        assertThat(plans.getNumberOfCachedQueryPlans()).isEqualTo(before);
    }

    private void findOwned(UUID client) throws Throwable {
        assertThat(VertxContextSupport.subscribeAndAwait(
                () -> Panache.withSession(() -> requests.findOwned(client, UUID.randomUUID())))).isNull();
    }

    /** The Hibernate session factory behind the reactive one (the cache is not part of any public API). */
    private SessionFactoryImplementor factory() throws ReflectiveOperationException {
        Object reactive = ClientProxy.unwrap(sessions);
        var delegate = reactive.getClass().getDeclaredField("delegate");
        delegate.setAccessible(true);
        return (SessionFactoryImplementor) delegate.get(reactive);
    }
}
