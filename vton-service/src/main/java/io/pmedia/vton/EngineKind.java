package io.pmedia.vton;

import jakarta.persistence.Converter;

import io.pmedia.common.wire.WireName;
import io.pmedia.common.wire.WireNameColumn;

/** Which engine a request is worked by: the compositor in this service, or a FASHN-compatible provider. */
public enum EngineKind implements WireName {
    BUILTIN("builtin"), FASHN("fashn");

    private final String wire;

    EngineKind(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Stored by its wire name. */
    @Converter
    public static class Column extends WireNameColumn<EngineKind> {
        public Column() {
            super(EngineKind.class);
        }
    }
}
