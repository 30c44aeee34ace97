package io.pmedia.common.paging;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

import io.pmedia.common.error.ApiException;

/**
 * What a caller asked of a list (contracts.md, "Viewers, the console and SDKs"): {@code ?limit=} (default 20, at most
 * 100) and {@code ?cursor=} (the {@code next-cursor} of the previous page). A repository fetches {@link #fetchSize()}
 * rows after the cursor, newest first; {@link #page} keeps {@code limit} of them and tells whether more follow.
 */
public record PageRequest(int limit, Cursor after) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    /** The page the query parameters ask for; 400 {@code VALIDATION_ERROR} naming the parameter otherwise. */
    public static PageRequest of(String limit, String cursor) {
        return new PageRequest(limit(limit), Cursor.parse(cursor));
    }

    /** Later than any time a list holds: the bound of a first page with no {@code to}. */
    public static final Instant END_OF_TIME = Instant.parse("9999-12-31T00:00:00Z");

    /**
     * Where the page starts, for the keyset condition {@code (time, id) < (bound.time, bound.id)} of a list ordered
     * newest first: the cursor, or (when there is none, or {@code to} is earlier) {@code to} (or the end of time) with
     * a null id, which stands for the smallest id of the column (so rows of exactly that time are not included).
     */
    public Cursor upperBound(Instant to) {
        if (after != null && (to == null || after.time().isBefore(to))) {
            return after;
        }
        return new Cursor(to == null ? END_OF_TIME : to, null);
    }

    /**
     * The position of a list whose items a uuid names, created in {@code [from, to)}: {@link #upperBound} as the
     * parameters of its query.
     */
    public Keyset keyset(Instant from, Instant to) {
        return Keyset.of(upperBound(to), from);
    }

    /** One more row than shown: whether it exists says whether there is a next page. */
    public int fetchSize() {
        return limit + 1;
    }

    /** Keeps the first {@code limit} rows, and a cursor after the last one when more rows were found. */
    public <T> Page<T> page(List<T> rows, Function<T, Cursor> position) {
        if (rows.size() <= limit) {
            return new Page<>(List.copyOf(rows), null);
        }
        List<T> shown = List.copyOf(rows.subList(0, limit));
        return new Page<>(shown, position.apply(shown.get(shown.size() - 1)).encode());
    }

    static int limit(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value.strip());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.validation("query parameter 'limit' must be an integer from 1 to " + MAX_LIMIT);
    }
}
