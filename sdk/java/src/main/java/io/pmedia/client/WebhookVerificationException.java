package io.pmedia.client;

/** A webhook request that does not verify: a header missing, a timestamp too old or too new, no matching signature. */
public class WebhookVerificationException extends PmediaException {

    private static final long serialVersionUID = 1L;

    public WebhookVerificationException(String message) {
        super(message);
    }

    public WebhookVerificationException(String message, Throwable cause) {
        super(message, cause);
    }
}
