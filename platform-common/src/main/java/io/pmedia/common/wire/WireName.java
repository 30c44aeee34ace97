package io.pmedia.common.wire;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A closed set whose values have a spelling of their own on the wire and in the database ({@code one-pieces},
 * {@code jpeg}): the enum constant is the Java name, {@link #wire()} what the interface document or a template
 * spells. Jackson writes the wire name; {@link WireNameColumn} stores it.
 */
public interface WireName {

    @JsonValue
    String wire();

    /** The constant of {@code type} spelt {@code value}, or null for an absent or unknown spelling. */
    static <E extends Enum<E> & WireName> E find(Class<E> type, String value) {
        if (value == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.wire().equals(value)) {
                return constant;
            }
        }
        return null;
    }

    /** The constant of {@code type} spelt {@code value}; an unknown spelling is a programming or data error. */
    static <E extends Enum<E> & WireName> E of(Class<E> type, String value) {
        E constant = find(type, value);
        if (constant == null && value != null) {
            throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + value + "'");
        }
        return constant;
    }
}
