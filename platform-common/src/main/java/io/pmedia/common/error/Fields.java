package io.pmedia.common.error;

import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import io.pmedia.common.wire.WireName;

/**
 * Checks of request body fields that answer 400 {@code VALIDATION_ERROR} with a message naming the field, the same
 * words in every service: "field 'row-count' is required", "... must be at least 1", "... must be a uuid, got 'x'".
 * Texts checked here are identifiers and names: beyond {@link VendorText}'s rule for every string, they hold no
 * control character at all (no tab or line break either).
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

    /**
     * A JSON object that holds only the named keys: a misspelt field ({@code webhook_url}) is refused naming the
     * key and the allowed ones, never silently ignored. For bodies where an unknown key can only be a mistake
     * (operator calls, settings); interface bodies tolerate keys of newer versions.
     */
    public static void onlyKnown(com.fasterxml.jackson.databind.JsonNode body, Set<String> allowed) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
        body.fieldNames().forEachRemaining(field -> {
            if (!allowed.contains(field)) {
                throw ApiException.validation("field '" + field + "' is not known; allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()));
            }
        });
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
        ApiException refused = VendorText.check("field '" + name + "'", value, false);
        if (refused != null) {
            throw refused;
        }
        if (value.length() > max) {
            throw ApiException.validation("field '" + name + "' must be at most " + max + " characters");
        }
        return value.strip();
    }
}
