package io.pmedia.common.net;

/** Why a fetch did not produce a response. The message is safe to show to the vendor who supplied the URL. */
public class FetchException extends RuntimeException {

    public enum Reason {
        /** Not an absolute http(s) URL, or it carries credentials. */
        BAD_URL,
        /** The host resolves to an address the policy refuses. */
        REFUSED_ADDRESS,
        /** The host name does not resolve. */
        UNRESOLVABLE,
        /** TCP/TLS connection failed or was reset. */
        CONNECTION,
        /** No complete response within the time limit. */
        TIMEOUT,
        /** The body is larger than the limit. */
        TOO_LARGE,
        /** The response's content type is not one the caller accepts. */
        CONTENT_TYPE,
        /** Too many redirects, or a redirect without a usable Location. */
        REDIRECT
    }

    private final Reason reason;

    public FetchException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public FetchException(Reason reason, String message, Throwable cause) {
        super(message, cause, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
