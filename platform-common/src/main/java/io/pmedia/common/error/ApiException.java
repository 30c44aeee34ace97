package io.pmedia.common.error;

import java.time.Duration;

/**
 * A failure the caller should see as a 2.11 error body. Thrown anywhere in a request's path; {@link ErrorMappers}
 * turns it into the response, so resources never build error responses by hand.
 */
public class ApiException extends RuntimeException {

    private final ErrorCode code;
    private final Duration retryAfter;

    public ApiException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public ApiException(ErrorCode code, String message, Duration retryAfter) {
        super(message, null, false, false);
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public ErrorCode code() {
        return code;
    }

    /** For {@link ErrorCode#RATE_LIMITED} and {@link ErrorCode#SERVICE_UNAVAILABLE}: the {@code Retry-After} to send. */
    public Duration retryAfter() {
        return retryAfter;
    }

    public static ApiException notFound(String message) {
        return new ApiException(ErrorCode.NOT_FOUND, message);
    }

    public static ApiException validation(String message) {
        return new ApiException(ErrorCode.VALIDATION_ERROR, message);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(ErrorCode.BAD_REQUEST, message);
    }

    public static ApiException conflict(String message) {
        return new ApiException(ErrorCode.CONFLICT, message);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(ErrorCode.UNAUTHORIZED, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(ErrorCode.FORBIDDEN, message);
    }
}
