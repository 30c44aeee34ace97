package io.pmedia.batch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where one row of a batch task stands; the wire name is how the database and the output file write it (the output
 * file shows the three outcomes, and {@code ON-VIEW} for a row of a task rendered on first view that was not).
 */
public enum RowStatus {
    /** Stored, not yet submitted. */
    PENDING("PENDING"),
    /** Its render job is on the batch lane; the result has not come back. */
    SUBMITTED("SUBMITTED"),
    /** Render on first view: its share link is out, nothing is rendered until the link is opened. */
    ON_VIEW("ON-VIEW"),
    /** Render on first view: its link was opened; its render waits for a place on the realtime lane. */
    VIEWED("VIEWED"),
    /** Render on first view: its link was opened, its render job is on the realtime lane. */
    RENDERING("RENDERING"),
    /** Rendered: its video and thumbnail are in the vendor's namespace. */
    SUCCESS("SUCCESS"),
    /** Not rendered: the row was unusable, the worker failed it, or its render never came back. */
    FAILURE("FAILURE"),
    /** Not rendered because the task ended first (cancelled, campaign over). */
    CANCELLED("CANCELLED");

    private final String wire;

    RowStatus(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static RowStatus ofWire(String value) {
        for (RowStatus status : values()) {
            if (status.wire.equals(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown row status " + value);
    }
}
