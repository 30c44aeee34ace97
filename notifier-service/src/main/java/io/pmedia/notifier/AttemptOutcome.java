package io.pmedia.notifier;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchResponse;

/**
 * What one attempt came to, and what it means for the delivery and for the endpoint. Any 2xx is success; timeouts,
 * connection errors, 429 and 5xx are worth retrying (honouring {@code Retry-After}); 410 Gone disables the endpoint;
 * every other answer (other 4xx, a redirect, which is never followed) is final.
 */
public record AttemptOutcome(Verdict verdict, Integer statusCode, String error, Integer latencyMillis,
        String responseBody, Duration retryAfter, boolean endpointFailure) {

    public enum Verdict {
        DELIVERED, RETRY, FINAL, GONE
    }

    static final int RESPONSE_BODY_LIMIT = 1024;

    /** Classifies an HTTP answer. */
    public static AttemptOutcome of(FetchResponse response, Instant now) {
        int status = response.status();
        int latency = (int) Math.min(Integer.MAX_VALUE, response.latency().toMillis());
        String body = response.bodyText(RESPONSE_BODY_LIMIT);
        if (status >= 200 && status < 300) {
            return new AttemptOutcome(Verdict.DELIVERED, status, null, latency, body, null, false);
        }
        if (status == 410) {
            return new AttemptOutcome(Verdict.GONE, status, "endpoint answered 410 Gone: it is disabled", latency,
                    body, null, false);
        }
        if (status == 429 || status >= 500) {
            Duration retryAfter = parseRetryAfter(response.header("retry-after"), now);
            return new AttemptOutcome(Verdict.RETRY, status, "endpoint answered " + status, latency, body, retryAfter,
                    status >= 500);
        }
        if (status >= 300 && status < 400) {
            return new AttemptOutcome(Verdict.FINAL, status, "endpoint answered a redirect (" + status
                    + "), which is not followed: register the final URL", latency, body, null, false);
        }
        if (status >= 400) {
            return new AttemptOutcome(Verdict.FINAL, status, "endpoint answered " + status, latency, body, null,
                    false);
        }
        return new AttemptOutcome(Verdict.RETRY, status, "endpoint answered " + status, latency, body, null, true);
    }

    /** Classifies a request that got no HTTP answer. */
    public static AttemptOutcome of(Throwable failure, long latencyMillis) {
        int latency = (int) Math.min(Integer.MAX_VALUE, latencyMillis);
        if (failure instanceof FetchException fetch) {
            return switch (fetch.reason()) {
                case BAD_URL, REFUSED_ADDRESS -> new AttemptOutcome(Verdict.FINAL, null, fetch.getMessage(), latency,
                        null, null, false);
                case TIMEOUT, CONNECTION, UNRESOLVABLE, TOO_LARGE, CONTENT_TYPE, REDIRECT -> new AttemptOutcome(
                        Verdict.RETRY, null, fetch.getMessage(), latency, null, null, true);
            };
        }
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return new AttemptOutcome(Verdict.RETRY, null, message, latency, null, null, true);
    }

    /** An attempt not made because the endpoint's breaker is open: counts like a failed one, costs nothing. */
    public static AttemptOutcome circuitOpen(int failures) {
        return new AttemptOutcome(Verdict.RETRY, null, "not sent: the endpoint failed " + failures
                + " times in a row, its circuit breaker is open", 0, null, null, false);
    }

    /** An attempt that could not be signed (the client has no usable secret): nothing is ever sent unsigned. */
    public static AttemptOutcome unsigned(String why) {
        return new AttemptOutcome(Verdict.RETRY, null, "not sent: " + why, 0, null, null, false);
    }

    public boolean delivered() {
        return verdict == Verdict.DELIVERED;
    }

    /**
     * Reads a {@code Retry-After} header: delay seconds or an HTTP date (RFC 9110). Null when absent or unreadable.
     */
    public static Duration parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.trim();
        if (trimmed.matches("\\d{1,10}")) {
            return Duration.ofSeconds(Long.parseLong(trimmed));
        }
        try {
            Instant at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration until = Duration.between(now, at);
            return until.isNegative() ? Duration.ZERO : until;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
