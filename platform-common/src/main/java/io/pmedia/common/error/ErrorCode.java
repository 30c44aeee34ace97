package io.pmedia.common.error;

/**
 * The closed set of error codes of the 2.11 error body (contracts.md, "Error body"), each with the HTTP status it
 * always travels with.
 */
public enum ErrorCode {
    BAD_REQUEST(400), VALIDATION_ERROR(400), UNAUTHORIZED(401), FORBIDDEN(403), NOT_FOUND(404), METHOD_NOT_ALLOWED(
            405), NOT_ACCEPTABLE(406), CONFLICT(409), GONE(410), PAYLOAD_TOO_LARGE(
                    413), UNSUPPORTED_MEDIA_TYPE(415), RATE_LIMITED(
                            429), INTERNAL_ERROR(500), BAD_GATEWAY(502), SERVICE_UNAVAILABLE(503), GATEWAY_TIMEOUT(504);

    private final int status;

    ErrorCode(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** The code a bare HTTP status maps to when no more specific code is known. */
    public static ErrorCode forStatus(int status) {
        return switch (status) {
            case 400 -> BAD_REQUEST;
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 409 -> CONFLICT;
            case 410 -> GONE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 429 -> RATE_LIMITED;
            case 502 -> BAD_GATEWAY;
            case 503 -> SERVICE_UNAVAILABLE;
            case 504 -> GATEWAY_TIMEOUT;
            default -> status >= 500 ? INTERNAL_ERROR : BAD_REQUEST;
        };
    }
}
