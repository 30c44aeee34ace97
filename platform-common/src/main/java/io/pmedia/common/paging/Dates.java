package io.pmedia.common.paging;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Pattern;

import io.pmedia.common.error.ApiException;

/**
 * The one reader of dates and times a vendor sends, in a query parameter or a body field: an ISO 8601 date-time with
 * an offset ({@code 2026-11-27T08:00:00Z}) or a date ({@code 2026-11-27}, its start in UTC), with a plain four-digit
 * year from 0001 to 9999. Expanded years ({@code -4713}, {@code +10000}) are valid ISO 8601 but name no time any list
 * or report holds, and the database refuses some of them: they are 400 like any other malformed value.
 */
public final class Dates {

    private static final Pattern PLAIN_YEAR = Pattern.compile("[0-9]{4}-.*", Pattern.DOTALL);
    private static final String FORM = "an ISO 8601 date-time with an offset (2026-11-27T08:00:00Z) or a date"
            + " (2026-11-27), years 0001 to 9999";

    private Dates() {
    }

    /** A query parameter's time; a blank parameter is an absent one (null). */
    public static Instant time(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return parse(value)
                .orElseThrow(() -> ApiException.validation("query parameter '" + name + "' must be " + FORM));
    }

    /** A query parameter's date (a date-time stands for its UTC date); a blank parameter is an absent one (null). */
    public static LocalDate date(String name, String value) {
        Instant at = time(name, value);
        return at == null ? null : LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    /**
     * A body field's time: null when the field is absent; a blank value is 400 (a vendor who sends the field means a
     * time, and none was given).
     */
    public static Instant fieldTime(String name, String value) {
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw ApiException.validation("field '" + name + "' is blank: it takes " + FORM);
        }
        return parse(value).orElseThrow(() -> ApiException.validation("field '" + name + "' must be " + FORM));
    }

    /**
     * Whether {@code text} starts with a plain year from 0001 to 9999 and its dash, the only years this reader takes;
     * for a reader of its own (a stricter form) that holds to the same years.
     */
    public static boolean plainYear(String text) {
        return PLAIN_YEAR.matcher(text).matches() && !text.startsWith("0000");
    }

    /** {@code from} before {@code to} when both are given. */
    public static void range(Instant from, Instant to) {
        if (from != null && to != null && !from.isBefore(to)) {
            throw ApiException.validation("query parameter 'from' must be before 'to'");
        }
    }

    /** A range of days {@code [from, to)}, at most {@code maxDays} long, {@code from} before {@code to}. */
    public static void days(LocalDate from, LocalDate to, long maxDays) {
        if (!from.isBefore(to)) {
            throw ApiException.validation("query parameter 'from' must be before 'to' (to is not included)");
        }
        if (ChronoUnit.DAYS.between(from, to) > maxDays) {
            throw ApiException.validation("query parameters 'from' and 'to' may span at most " + maxDays + " days");
        }
    }

    private static Optional<Instant> parse(String value) {
        String text = value.strip();
        if (!plainYear(text)) {
            return Optional.empty();
        }
        try {
            return Optional.of(text.length() == 10
                    ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
