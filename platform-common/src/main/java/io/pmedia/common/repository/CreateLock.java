package io.pmedia.common.repository;

import io.pmedia.common.db.NativeSql;
import io.smallrye.mutiny.Uni;

/**
 * Serializes the transactions that create or change one named resource, so that concurrent identical creates meet
 * the first one's row instead of a unique-key violation: a transaction-scoped PostgreSQL advisory lock on the
 * resource's key, held until the caller's transaction ends. Under READ COMMITTED the statements run after the lock is
 * taken see what the previous holder committed. Needs the caller's transaction (docs/decisions.md, "Creates under
 * concurrency").
 */
public final class CreateLock {

    /** 64-bit hash of the key text: two keys share a lock only on a hash collision (which only costs waiting). */
    private static final String LOCK = """
            SELECT pg_advisory_xact_lock(hashtextextended(?1, 0))
            """;

    private CreateLock() {
    }

    /** Takes the lock of {@code kind} and the key parts (e.g. "campaign", client id, campaign id). */
    public static Uni<Void> take(String kind, Object... key) {
        StringBuilder text = new StringBuilder(kind);
        for (Object part : key) {
            // A length prefix keeps ("ab", "c") and ("a", "bc") apart.
            String value = String.valueOf(part);
            text.append('\u001f').append(value.length()).append(':').append(value);
        }
        return NativeSql.one(Object.class, LOCK, text.toString()).replaceWithVoid();
    }
}
