package io.pmedia.events;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * When a video is rendered (contracts.md, "Motion, text and rendering on view"): {@link #NOW} at once, or
 * {@link #ON_VIEW} the first time its share link is opened (docs/sharing.md, "Render on first view").
 */
public enum RenderMode {
    NOW("now"), ON_VIEW("on-view");

    private static final Set<String> WIRES = Arrays.stream(values()).map(RenderMode::wire)
            .collect(Collectors.toUnmodifiableSet());

    private final String wire;

    RenderMode(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** Every wire name: what a request's {@code render} field may say. */
    public static Set<String> wires() {
        return WIRES;
    }

    @JsonCreator
    public static RenderMode ofWire(String value) {
        for (RenderMode mode : values()) {
            if (mode.wire.equals(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown render mode " + value);
    }
}
