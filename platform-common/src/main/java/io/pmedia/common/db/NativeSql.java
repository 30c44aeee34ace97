package io.pmedia.common.db;

import java.util.List;

import org.hibernate.reactive.mutiny.Mutiny;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Runs a repository's SQL in the caller's reactive Hibernate session, and in its transaction where it opened one (so
 * row locks last until that transaction ends). Parameters are positional: {@code ?1}, {@code ?2}, ... in order.
 */
public final class NativeSql {

    private NativeSql() {
    }

    /** The one row (an entity of {@code type}, or a scalar), or a null item when there is none. */
    public static <T> Uni<T> one(Class<T> type, String sql, Object... parameters) {
        return Panache.getSession()
                .flatMap(session -> bind(session.createNativeQuery(sql, type), parameters).getSingleResultOrNull());
    }

    /** Every row, as entities of {@code type} or scalars. */
    public static <T> Uni<List<T>> list(Class<T> type, String sql, Object... parameters) {
        return Panache.getSession()
                .flatMap(session -> bind(session.createNativeQuery(sql, type), parameters).getResultList());
    }

    /** How many rows an INSERT, UPDATE or DELETE wrote. */
    public static Uni<Integer> update(String sql, Object... parameters) {
        return Panache.getSession().flatMap(session -> {
            var query = session.createNativeQuery(sql);
            for (int i = 0; i < parameters.length; i++) {
                query.setParameter(i + 1, parameters[i]);
            }
            return query.executeUpdate();
        });
    }

    private static <T> Mutiny.SelectionQuery<T> bind(Mutiny.SelectionQuery<T> query, Object... parameters) {
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return query;
    }
}
