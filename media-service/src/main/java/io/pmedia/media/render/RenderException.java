package io.pmedia.media.render;

/** A render that did not produce a video; the message is safe to show to the vendor. */
public class RenderException extends RuntimeException {

    public RenderException(String message) {
        super(message, null, false, false);
    }

    public RenderException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
