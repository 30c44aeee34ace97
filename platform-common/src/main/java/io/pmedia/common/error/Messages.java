package io.pmedia.common.error;

/** How a caller's value appears inside a message: whole when short, its beginning and "..." when long. */
public final class Messages {

    private Messages() {
    }

    /** {@code value} in at most {@code max} characters (at least 4): whole, or its beginning followed by "...". */
    public static String abbreviate(String value, int max) {
        return value.length() <= max ? value : value.substring(0, max - 3) + "...";
    }
}
