package io.pmedia.common.error;

import java.util.IdentityHashMap;
import java.util.Map;

import io.vertx.pgclient.PgException;

/**
 * A unique-key violation is never a fault: two requests created the same resource at once, and the one that lost
 * gets 409 {@code CONFLICT} naming what exists. Operations meant to be idempotent serialize or {@code ON CONFLICT}
 * themselves (docs/decisions.md, "Creates under concurrency"); this mapping is the net under every other write, in
 * the one error layer. The failure may arrive wrapped at any depth by Hibernate Reactive or Mutiny.
 */
public final class Conflicts {

    static final String UNIQUE_VIOLATION = "23505";
    private static final int MAX_DEPTH = 32;

    private Conflicts() {
    }

    /** The 409 answer for {@code failure} when it is a unique-key violation; null otherwise. */
    public static ApiException conflict(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable cause = failure; cause != null && seen.size() < MAX_DEPTH
                && seen.put(cause, Boolean.TRUE) == null; cause = cause.getCause()) {
            if (cause instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState())) {
                return ApiException.conflict(describe(pg.getTable()) + " with the same identifying fields already"
                        + " exists (a concurrent request created it); read it, or retry");
            }
            if (cause instanceof java.sql.SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return ApiException.conflict("a resource with the same identifying fields already exists (a"
                        + " concurrent request created it); read it, or retry");
            }
        }
        return null;
    }

    /** "a campaign schedule" from the table {@code campaign_schedule}: the resource, never the constraint's name. */
    private static String describe(String table) {
        if (table == null || table.isBlank() || !table.matches("[a-z_]+")) {
            return "a resource";
        }
        String words = table.replace('_', ' ');
        return ("aeiou".indexOf(words.charAt(0)) >= 0 ? "an " : "a ") + words;
    }
}
