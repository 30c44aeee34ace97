package io.pmedia.media.template;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code {{field}}} placeholders in a template's texts: where they are ({@link #PATTERN}) and how a request's values
 * fill them, with right-to-left values isolated inside a sentence of another direction.
 */
public final class Placeholders {

    /** A placeholder: its field name in group 1. */
    public static final Pattern PATTERN = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)\\s*}}");

    private Placeholders() {
    }

    /**
     * The text with every placeholder replaced by its field's value, stripped; null when nothing is left to show:
     * the text is blank, or it has placeholders and all of them are empty ("Photo: {{caption}}" without a caption).
     * Values are inserted once: a value that looks like a placeholder stays as it is.
     */
    static String substitute(String text, Map<String, String> fields) {
        return substitute(text, fields, false);
    }

    /**
     * As {@link #substitute(String, Map)}; with {@code isolate}, a value with right-to-left letters inside a text
     * that has letters of its own is wrapped in Unicode's first-strong isolate (U+2068 ... U+2069, what HTML's
     * {@code <bdi>} does): the sentence keeps the direction its author wrote it in ("محمد, this one is yours" reads
     * left to right with the name in its own order), where the first letter of the name would otherwise turn the
     * whole paragraph right to left. A text that is only placeholders takes its direction from its values.
     */
    static String substitute(String text, Map<String, String> fields, boolean isolate) {
        Matcher placeholder = PATTERN.matcher(text);
        boolean ownLetters = isolate && hasStrongLetter(PATTERN.matcher(text).replaceAll(""));
        StringBuilder out = new StringBuilder();
        int placeholders = 0;
        int filled = 0;
        while (placeholder.find()) {
            String value = fields.getOrDefault(placeholder.group(1), "");
            placeholders++;
            filled += value.isEmpty() ? 0 : 1;
            if (ownLetters && hasRightToLeftLetter(value)) {
                value = FIRST_STRONG_ISOLATE + value + POP_DIRECTIONAL_ISOLATE;
            }
            placeholder.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        placeholder.appendTail(out);
        String result = out.toString().strip();
        return result.isEmpty() || placeholders > 0 && filled == 0 ? null : result;
    }

    static final String FIRST_STRONG_ISOLATE = "\u2068";
    static final String POP_DIRECTIONAL_ISOLATE = "\u2069";

    private static boolean hasStrongLetter(String text) {
        return text.codePoints().map(Character::getDirectionality)
                .anyMatch(d -> d == Character.DIRECTIONALITY_LEFT_TO_RIGHT
                        || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                        || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC);
    }

    private static boolean hasRightToLeftLetter(String text) {
        return text.codePoints().map(Character::getDirectionality)
                .anyMatch(d -> d == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                        || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC);
    }
}
