package io.pmedia.media;

/**
 * Interface 2.5: whether a realtime request was taken on. {@code FAILURE} is an answer, not an error: the request
 * cannot be served (unknown use case, a required field missing) and reads FAILURE with the same message.
 */
public enum AcceptanceStatus {
    SUCCESS, FAILURE
}
