package io.pmedia.common.error;

import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import io.pmedia.common.wire.WireName;

/**
 * Checks of request body fields that answer 400 {@code VALIDATION_ERROR} with a message naming the field, the same
 * words in every service: "field 'row-count' is required", "... must be at least 1", "... must be a uuid, got 'x'".
 */
public final class Fields {

    private Fields() {
    }

    /** A present, non-blank text of at most {@code max} characters, stripped. */
    public static String required(String name, String value, int max) {
        if (value == null || value.isBlank()) {
            throw ApiException.validation("field '" + name + "' is required");
        }
        return limited(name, value, max);
    }

    /** A text of at most {@code max} characters, stripped; null when absent or blank. */
    public static String optional(String name, String value, int max) {
        return value == null || value.isBlank() ? null : limited(name, value, max);
    }

    /** A present uuid. */
    public static UUID uuid(String name, String value) {
        String text = required(name, value, 64);
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("field '" + name + "' must be a uuid, got '" + text + "'");
        }
    }

    /** A present integer of at least 1. */
    public static int atLeastOne(String name, Integer value) {
        if (value == null) {
            throw ApiException.validation("field '" + name + "' is required");
        }
        if (value < 1) {
            throw ApiException.validation("field '" + name + "' must be at least 1");
        }
        return value;
    }

    /** One of {@code allowed}, or {@code otherwise} when absent. */
    public static String oneOf(String name, String value, Set<String> allowed, String otherwise) {
        if (value == null) {
            return otherwise;
        }
        if (!allowed.contains(value)) {
            throw ApiException.validation("field '" + name + "' must be one of " + allowed.stream().sorted().toList()
                    + ", got '" + value + "'");
        }
        return value;
    }

    /** The constant of a closed set spelt {@code value}, or {@code otherwise} when absent; the same words. */
    public static <E extends Enum<E> & WireName> E oneOf(String name, String value, Class<E> type, E otherwise) {
        if (value == null) {
            return otherwise;
        }
        Set<String> allowed = Arrays.stream(type.getEnumConstants()).map(WireName::wire).collect(Collectors.toSet());
        return WireName.of(type, oneOf(name, value, allowed, null));
    }

    private static String limited(String name, String value, int max) {
        if (value.length() > max) {
            throw ApiException.validation("field '" + name + "' must be at most " + max + " characters");
        }
        return value.strip();
    }
}
