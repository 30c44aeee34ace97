package io.pmedia.media.repository;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.media.RegisteredMotion;
import io.smallrye.mutiny.Uni;

/** Registered motions (Lottie files) in PostgreSQL. Every method runs in the caller's reactive session. */
@ApplicationScoped
public class MotionStore {

    /** The motion {@code name} of {@code owner} (null: a shared one), or a null item. */
    public Uni<RegisteredMotion> find(UUID owner, String name) {
        return owner == null
                ? NativeSql.one(RegisteredMotion.class, "SELECT * FROM motion WHERE owner IS NULL AND name = ?1", name)
                : NativeSql.one(RegisteredMotion.class, "SELECT * FROM motion WHERE owner = ?1 AND name = ?2", owner,
                        name);
    }

    /** The motions of {@code owner} (null: the shared ones), by name. */
    public Uni<List<RegisteredMotion>> all(UUID owner) {
        return owner == null
                ? NativeSql.list(RegisteredMotion.class, "SELECT * FROM motion WHERE owner IS NULL ORDER BY name")
                : NativeSql.list(RegisteredMotion.class, "SELECT * FROM motion WHERE owner = ?1 ORDER BY name",
                        owner);
    }

    /**
     * The motions a template of {@code owner} may name: the vendor's own and the shared ones, a vendor's before a
     * shared one of the same name (null: the shared ones only).
     */
    public Uni<List<RegisteredMotion>> usableBy(UUID owner) {
        return owner == null
                ? all(null)
                : NativeSql.list(RegisteredMotion.class, "SELECT * FROM motion WHERE owner = ?1 OR owner IS NULL"
                        + " ORDER BY name, owner NULLS LAST", owner);
    }
}
