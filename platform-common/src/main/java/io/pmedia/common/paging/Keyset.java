package io.pmedia.common.paging;

import java.time.Instant;
import java.util.UUID;

/**
 * Where a list page starts, as its query takes it (newest first, ties by id, descending): the rows whose
 * {@code (created_at, id)} is below {@code (time, id)}, created at {@code from} or later. A bound with no id (a first
 * page, or {@code to}) takes the smallest uuid, so rows of exactly its time are not included; no {@code from}, the
 * beginning of time. The statement that uses it: {@code repository/KeysetQuery}.
 */
public record Keyset(Instant time, UUID id, Instant from) {

    /** The smallest uuid: a bound with no id excludes every row of its time. */
    static final UUID NO_ID = new UUID(0, 0);
    /** Earlier than anything a list holds. */
    static final Instant BEGINNING = Instant.parse("1970-01-01T00:00:00Z");

    /** The keyset below {@code bound} (its id a uuid, else 400 like any cursor this API did not return). */
    static Keyset of(Cursor bound, Instant from) {
        return new Keyset(bound.time(), bound.id() == null ? NO_ID : bound.uuid(), from == null ? BEGINNING : from);
    }
}
