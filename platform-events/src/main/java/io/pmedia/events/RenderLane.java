package io.pmedia.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The queue a render job waits in. Every render worker takes {@link #REALTIME} work first (a person is waiting for
 * it) and fills idle capacity with {@link #BATCH} work (docs/media.md, "Render lanes"). Each lane is its own topic, so
 * a backlog of batch rows never sits in front of a realtime request.
 */
public enum RenderLane {
    REALTIME("realtime", Topics.RENDER_JOBS), BATCH("batch", Topics.RENDER_JOBS_BATCH);

    private final String wire;
    private final String topic;

    RenderLane(String wire, String topic) {
        this.wire = wire;
        this.topic = topic;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The topic of this lane's jobs. */
    public String topic() {
        return topic;
    }

    @JsonCreator
    public static RenderLane ofWire(String value) {
        for (RenderLane lane : values()) {
            if (lane.wire.equals(value)) {
                return lane;
            }
        }
        throw new IllegalArgumentException("unknown render lane " + value);
    }
}
