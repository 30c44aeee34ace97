package io.pmedia.common.error;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

/**
 * The one edge rule for text a vendor sends: every field name and string value of a JSON body, every path and query
 * parameter, is checked here before anything reads it, so no string can reach the database, a file name, a header or
 * FFmpeg unchecked (PostgreSQL refuses NUL in text; a lone surrogate cannot be encoded in UTF-8 at all).
 *
 * <ul>
 * <li>Control characters are refused (400 {@code VALIDATION_ERROR} naming the field and the character), except tab,
 * line feed and carriage return, which free text (a personalization value, a template's text) may hold. Identifiers
 * and names refuse those too ({@link Fields}).</li>
 * <li>A lone surrogate (half of a UTF-16 pair, which JSON's {@code \ud800} escape can spell) is refused.</li>
 * <li>A body nests at most {@value #MAX_DEPTH} levels (no template or request needs more; a deeper one is an
 * attack on the recursive readers behind this check), and its string values are at most {@value #MAX_STRING}
 * characters (the largest field, a base64 font, is smaller; fields have tighter bounds of their own).</li>
 * </ul>
 * Services apply it to every JSON body and every URI parameter ({@link VendorTextFilter}); the gateway applies the
 * same scan to the bodies it forwards, so a refused body never reaches a service.
 */
public final class VendorText {

    public static final int MAX_DEPTH = 64;
    public static final int MAX_STRING = 1_048_576;

    private static final JsonFactory SCANNER = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(MAX_STRING)
                    .build())
            .build();

    private VendorText() {
    }

    /** What a scanned body turned out to be. */
    public enum Shape {
        EMPTY, OBJECT, OTHER
    }

    /**
     * Scans a JSON body: its syntax (400 {@code BAD_REQUEST} "malformed JSON at line l, column c"), its depth and
     * the text rule on every field name and string value (400 {@code VALIDATION_ERROR} naming the field).
     */
    public static Shape scan(byte[] json) {
        try (JsonParser parser = SCANNER.createParser(json)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return Shape.EMPTY;
            }
            for (JsonToken token = first; token != null; token = parser.nextToken()) {
                if (token == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    String problem = problem(name, false);
                    if (problem != null) {
                        throw ApiException.validation("a field name in " + where(parser.getParsingContext()
                                .getParent()) + " " + problem);
                    }
                } else if (token == JsonToken.VALUE_STRING) {
                    String problem = problem(parser.getText(), false);
                    if (problem != null) {
                        throw ApiException.validation("field '" + path(parser) + "' " + problem);
                    }
                }
                if (parser.getParsingContext().inRoot() && token.isStructEnd() || parser.getParsingContext()
                        .inRoot() && token.isScalarValue()) {
                    if (parser.nextToken() != null) {
                        throw ApiException.badRequest("malformed JSON: content after the end of the JSON value"
                                + location(parser));
                    }
                    break;
                }
            }
            return first == JsonToken.START_OBJECT ? Shape.OBJECT : Shape.OTHER;
        } catch (StreamConstraintsException e) {
            throw ApiException.badRequest(e.getMessage() != null && e.getMessage().contains("nesting")
                    ? "request body nests deeper than " + MAX_DEPTH + " levels"
                    : "request body has a string longer than " + MAX_STRING + " characters");
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("malformed JSON" + location(e));
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON");
        }
    }

    /**
     * Checks one text value (a URI parameter, a header a service reads, a CSV cell): null when it follows the rule,
     * else the 400 to throw, naming {@code what} (e.g. "path parameter 'campaign_id'").
     */
    public static ApiException check(String what, String value, boolean lineBreaksAllowed) {
        String problem = problem(value, !lineBreaksAllowed);
        return problem == null ? null : ApiException.validation(what + " " + problem);
    }

    /**
     * Why {@code text} breaks the rule, or null: the first control character (tab, LF and CR only when
     * {@code strict}) or lone surrogate, with its position.
     */
    static String problem(String text, boolean strict) {
        if (text == null) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "is not valid Unicode text: a lone surrogate at position " + (i + 1);
            }
            if (Character.isLowSurrogate(c)) {
                return "is not valid Unicode text: a lone surrogate at position " + (i + 1);
            }
            if (isControl(c) && (strict || c != '\t' && c != '\n' && c != '\r')) {
                return String.format("must not contain control characters (U+%04X at position %d)", (int) c, i + 1);
            }
        }
        return null;
    }

    /** C0 controls, DEL and C1 controls. */
    private static boolean isControl(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f;
    }

    /** The dotted path of the current value: {@code data.personalization_fields.name}, {@code garment-image[1]}. */
    private static String path(JsonParser parser) {
        return where(parser.getParsingContext());
    }

    private static String where(com.fasterxml.jackson.core.JsonStreamContext context) {
        StringBuilder path = new StringBuilder();
        append(path, context);
        return path.isEmpty() ? "the request body" : path.toString();
    }

    private static void append(StringBuilder path, com.fasterxml.jackson.core.JsonStreamContext context) {
        if (context == null || context.inRoot()) {
            return;
        }
        append(path, context.getParent());
        if (context.inObject() && context.getCurrentName() != null) {
            if (!path.isEmpty()) {
                path.append('.');
            }
            path.append(printable(context.getCurrentName()));
        } else if (context.inArray()) {
            path.append('[').append(Math.max(0, context.getCurrentIndex())).append(']');
        }
    }

    /** A name quoted in a message never carries the characters the message is about. */
    private static String printable(String name) {
        return problem(name, true) == null ? name : "(unprintable name)";
    }

    private static String location(JsonParser parser) {
        var at = parser.currentLocation();
        return at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }
}
