package io.pmedia.media.template;

import io.pmedia.common.wire.WireName;

/** How an image layer moves in its box over its time on screen, by the {@code motion} a template spells. */
public enum Motion implements WireName {
    /** From the whole picture to its middle, a fifth closer. */
    ZOOM_IN("zoom-in"),
    /** The reverse of {@code zoom-in}. */
    ZOOM_OUT("zoom-out"),
    /** A fifth closer, moving from the right edge of the picture to its left. */
    PAN_LEFT("pan-left"),
    /** A fifth closer, moving from the left edge of the picture to its right. */
    PAN_RIGHT("pan-right");

    private final String wire;

    Motion(String wire) {
        this.wire = wire;
    }

    /** As a template spells it. */
    @Override
    public String wire() {
        return wire;
    }

    /** The motion a template names, or null for an unknown one. */
    public static Motion ofWire(String value) {
        return WireName.find(Motion.class, value);
    }
}
