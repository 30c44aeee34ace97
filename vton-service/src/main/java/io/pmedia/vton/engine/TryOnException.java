package io.pmedia.vton.engine;

/** A try-on that cannot be done; the message is shown to the vendor in the request's status. */
public class TryOnException extends RuntimeException {

    public TryOnException(String message) {
        super(message);
    }
}
