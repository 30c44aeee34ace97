package io.pmedia.events;

/** Interface 3.2: the status of a realtime request. */
public enum MediaStatus {
    PROCESSING, SUCCESS, FAILURE;

    public boolean isFinal() {
        return this != PROCESSING;
    }
}
