package io.pmedia.media.template;

import io.pmedia.common.wire.WireName;

/** A template's sound track, by the {@code audio.type} it spells; {@code silence} when it names none. */
public enum AudioType implements WireName {
    SILENCE("silence"), TONE("tone"), TRACK("track");

    private final String wire;

    AudioType(String wire) {
        this.wire = wire;
    }

    /** As a template spells it. */
    @Override
    public String wire() {
        return wire;
    }

    /** The type a template names ({@code silence} for none), or null for an unknown one (the validator reports it). */
    public static AudioType ofWire(String value) {
        if (value == null) {
            return SILENCE;
        }
        return WireName.find(AudioType.class, value);
    }
}
