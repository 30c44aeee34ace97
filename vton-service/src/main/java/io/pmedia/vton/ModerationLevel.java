package io.pmedia.vton;

import jakarta.persistence.Converter;

import io.pmedia.common.wire.WireName;
import io.pmedia.common.wire.WireNameColumn;

/** Interface 2.9 {@code moderation_level}: how strictly the provider screens the images. */
public enum ModerationLevel implements WireName {
    CONSERVATIVE("conservative"), PERMISSIVE("permissive"), NONE("none");

    private final String wire;

    ModerationLevel(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Stored by its wire name. */
    @Converter
    public static class Column extends WireNameColumn<ModerationLevel> {
        public Column() {
            super(ModerationLevel.class);
        }
    }
}
