package io.pmedia.common.error;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Identifiers a caller sends (path segments, client ids): a uuid is recognised only in its 36-character form, in
 * either case, and is always compared and used as a key in one canonical form (lower-case). {@link UUID#fromString}
 * alone also accepts {@code 1-1-1-1-1}, so two spellings could name one resource or one rate-limit bucket.
 */
public final class Ids {

    private static final Pattern UUID_TEXT = Pattern
            .compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private Ids() {
    }

    /** The uuid {@code text} spells, or empty when it is not one. */
    public static Optional<UUID> uuid(String text) {
        if (text == null || !UUID_TEXT.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(UUID.fromString(text));
    }

    /** A uuid path parameter, or 400 {@code VALIDATION_ERROR} naming the parameter and what was given. */
    public static UUID pathUuid(String name, String text) {
        return uuid(text).orElseThrow(() -> ApiException.validation(name + " '" + abbreviate(text)
                + "' is not a valid uuid"));
    }

    /**
     * The canonical form of a presented identifier: a uuid in lower case, anything else stripped and lower-cased,
     * at most 100 characters (a key for counters, never an answer).
     */
    public static String canonical(String text) {
        if (text == null) {
            return "";
        }
        String stripped = text.strip();
        String canonical = uuid(stripped).map(UUID::toString).orElseGet(() -> stripped.toLowerCase(Locale.ROOT));
        return canonical.length() > 100 ? canonical.substring(0, 100) : canonical;
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        return text.length() > 64 ? text.substring(0, 64) + "..." : text;
    }
}
