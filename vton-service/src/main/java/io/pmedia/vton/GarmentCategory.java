package io.pmedia.vton;

import jakarta.persistence.Converter;

import io.pmedia.common.wire.WireName;
import io.pmedia.common.wire.WireNameColumn;

/** Interface 2.9 {@code category}: where on the body a garment goes; {@code auto} lets the engine decide. */
public enum GarmentCategory implements WireName {
    AUTO("auto"), TOPS("tops"), BOTTOMS("bottoms"), ONE_PIECES("one-pieces");

    private final String wire;

    GarmentCategory(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Stored by its wire name. */
    @Converter
    public static class Column extends WireNameColumn<GarmentCategory> {
        public Column() {
            super(GarmentCategory.class);
        }
    }
}
