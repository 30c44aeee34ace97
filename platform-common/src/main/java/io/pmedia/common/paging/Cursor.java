package io.pmedia.common.paging;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Ids;

/**
 * The opaque position of a list page: the time and id of the last item shown, in the order every list uses (newest
 * first, ties by id, descending). Encoded as URL-safe base64 of {@code <epoch microseconds>:<id>}; a vendor may only
 * hand it back. Tampering with it moves the position within the caller's own items and nowhere else: every list query
 * is scoped to the caller first.
 */
public record Cursor(Instant time, String id) {

    /** What any list's ids are made of (uuids, {@code msg_<hex>}); a cursor holding anything else was not ours. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,200}");
    private static final long MAX_MICROS = PageRequest.END_OF_TIME.getEpochSecond() * 1_000_000L;
    private static final Supplier<ApiException> INVALID = () -> ApiException
            .validation("query parameter 'cursor' is not a cursor this API returned");

    public String encode() {
        long micros = Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000L), time.getNano() / 1_000);
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((micros + ":" + id).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The id as a uuid, for lists whose items a uuid names (null for a bound with no id). A cursor holding anything
     * else was not made by such a list: 400, like any other cursor this API did not return.
     */
    public UUID uuid() {
        if (id == null) {
            return null;
        }
        return Ids.uuid(id).orElseThrow(INVALID);
    }

    /**
     * The id, for lists whose items {@code pattern} names (null for a bound with no id); anything else is 400, like
     * any other cursor this API did not return.
     */
    public String id(Pattern pattern) {
        if (id == null || pattern.matcher(id).matches()) {
            return id;
        }
        throw INVALID.get();
    }

    /** The cursor a list returned, or null for none; anything else is 400 {@code VALIDATION_ERROR} naming it. */
    public static Cursor parse(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            if (value.length() > 400) {
                throw new IllegalArgumentException("too long");
            }
            String decoded = new String(Base64.getUrlDecoder().decode(value.strip()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            long micros = Long.parseLong(decoded.substring(0, colon));
            String id = decoded.substring(colon + 1);
            if (!ID.matcher(id).matches()) {
                throw new IllegalArgumentException("bad id");
            }
            if (micros < 0 || micros > MAX_MICROS) { // no list holds such times; the database takes none
                throw new IllegalArgumentException("time out of range");
            }
            return new Cursor(Instant.ofEpochSecond(micros / 1_000_000L, micros % 1_000_000L * 1_000L), id);
        } catch (RuntimeException e) {
            throw INVALID.get();
        }
    }
}
