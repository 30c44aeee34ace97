package io.pmedia.client;

import java.time.Duration;
import java.util.Optional;

import io.pmedia.client.model.ErrorResponse;

/**
 * An error answer of the API, with its body (interface 2.11): {@link #getCode()} such as {@code NOT_FOUND} or
 * {@code VALIDATION_ERROR}, the server's {@link #getMessage() message}, the HTTP status and, for 429 and 503, the
 * {@code Retry-After} the server asked for. The common codes have subclasses a caller can catch.
 */
public class PmediaApiException extends PmediaException {

    private static final long serialVersionUID = 1L;

    private final int statusCode;
    private final String code;
    private final transient ErrorResponse error;
    private final Duration retryAfter;

    public PmediaApiException(int statusCode, ErrorResponse error, Duration retryAfter) {
        this(statusCode, error.getCode() == null ? null : error.getCode().getValue(), error.getMessage(), error,
                retryAfter);
    }

    /**
     * For an answer whose body is not the error body of this SDK's contract (a code added to the API later, or a
     * proxy's page): {@code error} may then be null.
     */
    public PmediaApiException(int statusCode, String code, String message, ErrorResponse error, Duration retryAfter) {
        super(message);
        this.statusCode = statusCode;
        this.code = code;
        this.error = error;
        this.retryAfter = retryAfter;
    }

    /** The exception for an error answer: a subclass for the codes a caller commonly handles. */
    static PmediaApiException of(int statusCode, ErrorResponse error, Duration retryAfter) {
        String code = error.getCode() == null ? "" : error.getCode().getValue();
        switch (code) {
            case "BAD_REQUEST" :
            case "VALIDATION_ERROR" :
                return new BadRequestException(statusCode, error, retryAfter);
            case "UNAUTHORIZED" :
                return new UnauthorizedException(statusCode, error, retryAfter);
            case "NOT_FOUND" :
                return new NotFoundException(statusCode, error, retryAfter);
            case "CONFLICT" :
                return new ConflictException(statusCode, error, retryAfter);
            case "RATE_LIMITED" :
                return new RateLimitedException(statusCode, error, retryAfter);
            case "SERVICE_UNAVAILABLE" :
                return new ServiceUnavailableException(statusCode, error, retryAfter);
            default :
                return new PmediaApiException(statusCode, error, retryAfter);
        }
    }

    /** The HTTP status, e.g. 404. */
    public int getStatusCode() {
        return statusCode;
    }

    /** The error code of the body, e.g. {@code NOT_FOUND} (docs/openapi.yaml, ErrorResponse). */
    public String getCode() {
        return code;
    }

    /** The whole error body: code, message, timestamp (null when the answer had no such body). */
    public ErrorResponse getError() {
        return error;
    }

    /** For 429 and 503: how long the server asked the caller to wait. */
    public Optional<Duration> getRetryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + ": " + statusCode + " " + getCode() + ": " + getMessage();
    }

    /** 400 {@code BAD_REQUEST} or {@code VALIDATION_ERROR}: the message names the field or the problem. */
    public static class BadRequestException extends PmediaApiException {
        private static final long serialVersionUID = 1L;

        public BadRequestException(int statusCode, ErrorResponse error, Duration retryAfter) {
            super(statusCode, error, retryAfter);
        }
    }

    /** 401 {@code UNAUTHORIZED}: missing, wrong or revoked credentials. */
    public static class UnauthorizedException extends PmediaApiException {
        private static final long serialVersionUID = 1L;

        public UnauthorizedException(int statusCode, ErrorResponse error, Duration retryAfter) {
            super(statusCode, error, retryAfter);
        }
    }

    /** 404 {@code NOT_FOUND}: unknown, or another client's (the two read the same). */
    public static class NotFoundException extends PmediaApiException {
        private static final long serialVersionUID = 1L;

        public NotFoundException(int statusCode, ErrorResponse error, Duration retryAfter) {
            super(statusCode, error, retryAfter);
        }
    }

    /** 409 {@code CONFLICT}, e.g. a client-request-id used before with another body. */
    public static class ConflictException extends PmediaApiException {
        private static final long serialVersionUID = 1L;

        public ConflictException(int statusCode, ErrorResponse error, Duration retryAfter) {
            super(statusCode, error, retryAfter);
        }
    }

    /** 429 {@code RATE_LIMITED}, once the retries the request was allowed are spent (or it was not idempotent). */
    public static class RateLimitedException extends PmediaApiException {
        private static final long serialVersionUID = 1L;

        public RateLimitedException(int statusCode, ErrorResponse error, Duration retryAfter) {
            super(statusCode, error, retryAfter);
        }
    }

    /** 503 {@code SERVICE_UNAVAILABLE}, once the retries the request was allowed are spent. */
    public static class ServiceUnavailableException extends PmediaApiException {
        private static final long serialVersionUID = 1L;

        public ServiceUnavailableException(int statusCode, ErrorResponse error, Duration retryAfter) {
            super(statusCode, error, retryAfter);
        }
    }
}
