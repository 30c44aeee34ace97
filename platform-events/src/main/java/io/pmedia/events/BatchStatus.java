package io.pmedia.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Interface 2.8 / 3.1: the status values of a batch task, spelt as the interface document spells them. */
public enum BatchStatus {
    PENDING("PENDING"), IN_PROGRESS("IN PROGRESS"), COMPLETED("COMPLETED"), FAILED("FAILED");

    private final String wire;

    BatchStatus(String wire) {
        this.wire = wire;
    }

    /** As the API, the events and the database write it ({@code IN PROGRESS} with its space). */
    @JsonValue
    public String wire() {
        return wire;
    }

    public boolean isFinal() {
        return this == COMPLETED || this == FAILED;
    }

    @JsonCreator
    public static BatchStatus ofWire(String value) {
        for (BatchStatus status : values()) {
            if (status.wire.equals(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown batch status " + value);
    }
}
