package io.pmedia.client;

/**
 * Every failure the SDK reports is a {@code PmediaException} (unchecked): an error answer of the API
 * ({@link PmediaApiException} and its subclasses, with the error body), a render or task that ended in failure, a
 * wait that timed out, a webhook that does not verify, or the network.
 */
public class PmediaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PmediaException(String message) {
        super(message);
    }

    public PmediaException(String message, Throwable cause) {
        super(message, cause);
    }
}
