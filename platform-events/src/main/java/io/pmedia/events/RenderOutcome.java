package io.pmedia.events;

/** How a render job ended. */
public enum RenderOutcome {
    SUCCESS, FAILURE
}
