package io.pmedia.common.error;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

/**
 * What a request body that Jackson could not read is answered (the field, what it should have been), for
 * {@link ErrorMappers} and for a Vert.x route that reads its own body: one wording whichever layer read it.
 */
public final class JsonProblems {

    private JsonProblems() {
    }

    /** The answer to a Jackson failure: 400 (or 422 for a field a strict record does not know), naming the field. */
    public static ApiException of(JsonProcessingException e) {
        if (e instanceof InputCoercionException coercion) {
            return inputCoercion(coercion);
        }
        if (e instanceof UnrecognizedPropertyException unrecognized) {
            return unrecognizedProperty(unrecognized);
        }
        if (e instanceof InvalidFormatException invalid) {
            return invalidFormat(invalid);
        }
        if (e instanceof MismatchedInputException mismatched) {
            return mismatchedInput(mismatched);
        }
        if (e instanceof ValueInstantiationException instantiation) {
            return valueInstantiation(instantiation);
        }
        if (e instanceof JsonMappingException mapping) {
            return jsonMapping(mapping);
        }
        return malformedJson(e);
    }

    private static ApiException unrecognizedProperty(UnrecognizedPropertyException e) {
        String known = e.getKnownPropertyIds() == null
                ? ""
                : e.getKnownPropertyIds().stream().map(String::valueOf)
                        .sorted().collect(Collectors.joining(", "));
        return new ApiException(ErrorCode.VALIDATION_ERROR, "field '" + path(e) + "' is not known"
                + (known.isEmpty() ? "" : "; allowed: " + known));
    }

    private static ApiException inputCoercion(InputCoercionException e) {
        return new ApiException(ErrorCode.BAD_REQUEST, "a number in the request body is out of range for "
                + expected(e.getTargetType()));
    }

    private static ApiException invalidFormat(InvalidFormatException e) {
        return wrongType(e, e.getTargetType());
    }

    private static ApiException mismatchedInput(MismatchedInputException e) {
        if (e.getPath().isEmpty()) {
            return new ApiException(ErrorCode.BAD_REQUEST, e.getTargetType() == null
                    ? "request body is missing or is not a JSON object"
                    : "request body must be " + expected(e.getTargetType()));
        }
        return wrongType(e, e.getTargetType());
    }

    private static ApiException valueInstantiation(ValueInstantiationException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        if (cause instanceof ApiException api) {
            return api;
        }
        return new ApiException(ErrorCode.BAD_REQUEST, "request body is not valid"
                + (e.getPath().isEmpty() ? "" : " at '" + path(e) + "'"));
    }

    private static ApiException jsonMapping(JsonMappingException e) {
        if (e.getCause() instanceof InputCoercionException coercion && !e.getPath().isEmpty()) {
            return new ApiException(ErrorCode.BAD_REQUEST, "field '" + path(e) + "' is out of range for "
                    + expected(coercion.getTargetType()));
        }
        return new ApiException(ErrorCode.BAD_REQUEST,
                "request body is not valid" + (e.getPath().isEmpty() ? "" : " at '" + path(e) + "'"));
    }

    private static ApiException malformedJson(JsonProcessingException e) {
        String where = e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        return new ApiException(ErrorCode.BAD_REQUEST, "malformed JSON" + where);
    }

    private static ApiException wrongType(JsonMappingException e, Class<?> target) {
        return new ApiException(ErrorCode.BAD_REQUEST,
                "field '" + path(e) + "' has the wrong type: expected " + expected(target));
    }

    static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    static String expected(Class<?> type) {
        if (type == null) {
            return "another type";
        }
        if (type == String.class || type == Character.class || type == char.class) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean";
        }
        if (type == UUID.class) {
            return "a uuid";
        }
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.stream(type.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", ", "[", "]"));
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (java.time.temporal.Temporal.class.isAssignableFrom(type)) {
            return "an ISO 8601 date-time";
        }
        if (Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
            return "an object";
        }
        return "another type";
    }
}
