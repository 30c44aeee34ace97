package io.pmedia.gateway;

/** Which credentials a route takes (interface section 5, and the operator's). */
public enum Access {
    /** {@code Authorization: Bearer} with a vendor's token. */
    BEARER,
    /** Both {@code x-api-key} and the bearer token, of the same client ({@code POST /video/demo}). */
    KEY_AND_BEARER,
    /** The API key, the bearer token, or both of the same client ({@code GET /status/{id}}). */
    KEY_OR_BEARER,
    /**
     * The operator's admin token. Checked by the security layer (role {@code operator}, {@code /admin/*} in
     * application.properties); the call is forwarded with a short-lived operator token.
     */
    OPERATOR
}
