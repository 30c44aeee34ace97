package io.pmedia.common.wire;

import jakarta.persistence.AttributeConverter;

/**
 * Stores a {@link WireName} enum as its wire name, so the column reads as the API does. JPA needs a concrete
 * converter per enum: {@code @Converter public static class Column extends WireNameColumn<Mode> { ... }}.
 */
public abstract class WireNameColumn<E extends Enum<E> & WireName> implements AttributeConverter<E, String> {

    private final Class<E> type;

    protected WireNameColumn(Class<E> type) {
        this.type = type;
    }

    @Override
    public String convertToDatabaseColumn(E value) {
        return value == null ? null : value.wire();
    }

    @Override
    public E convertToEntityAttribute(String value) {
        return WireName.of(type, value);
    }
}
