package io.pmedia.vton;

import jakarta.persistence.Converter;

import io.pmedia.common.wire.WireName;
import io.pmedia.common.wire.WireNameColumn;

/** Interface 2.9 {@code mode}: speed against quality (FASHN's modes; the built-in engine sizes its output by it). */
public enum TryOnMode implements WireName {
    PERFORMANCE("performance"), BALANCED("balanced"), QUALITY("quality");

    private final String wire;

    TryOnMode(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Stored by its wire name. */
    @Converter
    public static class Column extends WireNameColumn<TryOnMode> {
        public Column() {
            super(TryOnMode.class);
        }
    }
}
