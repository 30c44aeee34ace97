package io.pmedia.events;

/** The status of a try-on request (interface 3.3 shows SUCCESS; docs/vton.md defines the rest). */
public enum TryOnStatus {
    PROCESSING, SUCCESS, FAILURE;

    public boolean isFinal() {
        return this != PROCESSING;
    }
}
