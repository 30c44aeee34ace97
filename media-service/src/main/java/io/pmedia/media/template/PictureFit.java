package io.pmedia.media.template;

import io.pmedia.common.wire.WireName;

/** How a picture layer fills its box, by the {@code fit} a template spells; {@code contain} when it names none. */
public enum PictureFit implements WireName {
    /** Whole picture inside the box, proportions kept. */
    CONTAIN("contain"),
    /** The box filled, proportions kept, the overflow cut. */
    COVER("cover"),
    /** The box filled, proportions given up. */
    STRETCH("stretch");

    private final String wire;

    PictureFit(String wire) {
        this.wire = wire;
    }

    /** As a template spells it. */
    @Override
    public String wire() {
        return wire;
    }

    /** The fit a template names ({@code contain} for none), or null for an unknown one (the validator reports it). */
    public static PictureFit ofWire(String value) {
        if (value == null) {
            return CONTAIN;
        }
        return WireName.find(PictureFit.class, value);
    }
}
