package io.pmedia.common.paging;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Ids;

/**
 * Query parameters of the lists, read with one set of rules: a blank parameter is an absent one, a wrong one is 400
 * {@code VALIDATION_ERROR} naming the parameter and what it takes.
 */
public final class ListFilters {

    private static final int MAX_TEXT = 200;

    private ListFilters() {
    }

    /**
     * A point in time: an ISO 8601 date-time with an offset ({@code 2026-11-27T08:00:00Z}) or a date (its start, UTC).
     */
    public static Instant time(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        try {
            return text.length() == 10
                    ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiException.validation("query parameter '" + name
                    + "' must be an ISO 8601 date-time with an offset (2026-11-27T08:00:00Z) or a date (2026-11-27)");
        }
    }

    /** {@code from} before {@code to} when both are given. */
    public static void range(Instant from, Instant to) {
        if (from != null && to != null && !from.isBefore(to)) {
            throw ApiException.validation("query parameter 'from' must be before 'to'");
        }
    }

    /** A text to match exactly, at most 200 characters. */
    public static String text(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() > MAX_TEXT) {
            throw ApiException.validation("query parameter '" + name + "' must be at most " + MAX_TEXT
                    + " characters");
        }
        return value.strip();
    }

    /** One value of a closed set, as the API spells it ({@code wire}), in any case. */
    public static <E extends Enum<E>> E oneOf(String name, String value, Class<E> type, Function<E, String> wire) {
        if (value == null || value.isBlank()) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (wire.apply(constant).equalsIgnoreCase(value.strip())) {
                return constant;
            }
        }
        throw ApiException.validation("query parameter '" + name + "' must be one of "
                + Arrays.stream(type.getEnumConstants()).map(wire).collect(Collectors.joining(", ")));
    }

    /** A uuid. */
    public static UUID uuid(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return Ids.uuid(value.strip()).orElseThrow(
                () -> ApiException.validation("query parameter '" + name + "' must be a uuid"));
    }
}
