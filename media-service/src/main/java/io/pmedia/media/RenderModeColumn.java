package io.pmedia.media;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import io.pmedia.events.RenderMode;

/** A request's {@link RenderMode}, stored by its wire name ({@code now}, {@code on-view}). */
@Converter
public class RenderModeColumn implements AttributeConverter<RenderMode, String> {

    @Override
    public String convertToDatabaseColumn(RenderMode mode) {
        return mode == null ? null : mode.wire();
    }

    @Override
    public RenderMode convertToEntityAttribute(String wire) {
        return wire == null ? null : RenderMode.ofWire(wire);
    }
}
