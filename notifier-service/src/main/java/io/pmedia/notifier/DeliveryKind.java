package io.pmedia.notifier;

/** What a delivery carries: the interface's video push, or a test event a vendor asked for. */
public enum DeliveryKind {
    VIDEO_PUSH("video.push"), TEST("test");

    private final String wire;

    DeliveryKind(String wire) {
        this.wire = wire;
    }

    /** The name stored and shown by the deliveries API. */
    public String wire() {
        return wire;
    }

    public static DeliveryKind fromWire(String value) {
        for (DeliveryKind kind : values()) {
            if (kind.wire.equals(value)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown delivery kind " + value);
    }
}
