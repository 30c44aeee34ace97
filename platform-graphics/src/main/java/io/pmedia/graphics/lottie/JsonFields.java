package io.pmedia.graphics.lottie;

import static io.pmedia.graphics.lottie.LottieFile.step;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Lottie file's fields read as the check requires them: an array, a string or a number in range, else a
 * {@link LottieException} at the field's JSON pointer saying what was expected.
 */
final class JsonFields {

    private JsonFields() {
    }

    static JsonNode array(JsonNode parent, String key, String pointer, boolean required) {
        JsonNode node = parent.get(key);
        if (node == null && !required) {
            return null;
        }
        if (node == null || !node.isArray()) {
            throw new LottieException(pointer + step(key), node == null ? "missing (an array)" : "not an array");
        }
        return node;
    }

    static String text(JsonNode parent, String key, String pointer, boolean required) {
        JsonNode node = parent.get(key);
        if (node == null && !required) {
            return "";
        }
        if (node == null || !node.isTextual()) {
            throw new LottieException(pointer + step(key), node == null ? "missing (a string)" : "not a string");
        }
        return node.asText();
    }

    static double number(JsonNode parent, String key, String pointer, double min, double max,
            boolean required) {
        JsonNode node = parent.get(key);
        if (node == null && !required) {
            return min;
        }
        String at = pointer + step(key);
        if (node == null) {
            throw new LottieException(at, "missing (a number)");
        }
        if (!node.isNumber()) {
            throw new LottieException(at, "a " + node.getNodeType().name().toLowerCase() + " where a number is"
                    + " needed");
        }
        double value = node.asDouble();
        if (!(value >= min && value <= max)) {
            throw new LottieException(at, value + " is out of range (" + min + " to " + max + ")");
        }
        return value;
    }

    /** A vendor's value as a message quotes it: at most 80 characters. */
    static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
