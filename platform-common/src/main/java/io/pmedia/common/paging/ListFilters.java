package io.pmedia.common.paging;

import java.util.Arrays;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Ids;

/**
 * Query parameters of the lists (their times: {@link Dates}), read with one set of rules: a blank parameter is an absent one, a wrong one is 400
 * {@code VALIDATION_ERROR} naming the parameter and what it takes.
 */
public final class ListFilters {

    private static final int MAX_TEXT = 200;

    private ListFilters() {
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
