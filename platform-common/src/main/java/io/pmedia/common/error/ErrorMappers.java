package io.pmedia.common.error;

import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/**
 * The single exception-mapping layer of every service: whatever fails inside JAX-RS leaves as a 2.11 error body
 * with the right code. Failures below JAX-RS (body limits, routes no resource owns) are handled by
 * {@link HttpFailureHandler} with the same body.
 */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    @ServerExceptionMapper
    public Response apiException(ApiException e) {
        return respond(e.code(), e.getMessage(), e.retryAfter() == null ? null : e.retryAfter().toSeconds());
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e, Request request, UriInfo uri) {
        // Services signal missing resources with ApiException; a NotFoundException is JAX-RS finding no endpoint.
        return respond(ErrorCode.NOT_FOUND,
                "no endpoint " + request.getMethod() + " " + uri.getRequestUri().getRawPath(), null);

    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e, Request request, UriInfo uri) {
        Response response = respond(ErrorCode.METHOD_NOT_ALLOWED,
                "method " + request.getMethod() + " is not allowed on " + uri.getRequestUri().getRawPath(),
                null);
        String allow = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
        return allow == null ? response : Response.fromResponse(response).header(HttpHeaders.ALLOW, allow).build();
    }

    @ServerExceptionMapper
    public Response notSupported(NotSupportedException e, HttpHeaders headers) {
        MediaType type = headers.getMediaType();
        return respond(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                "unsupported Content-Type " + (type == null ? "(none)" : "'" + type + "'")
                        + ": send application/json",
                null);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, Request request, UriInfo uri) {
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return json(json);
            }
        }
        int status = e.getResponse().getStatus();
        if (status == 404) {
            return notFound(null, request, uri);
        }
        ErrorCode code = ErrorCode.forStatus(status);
        String message = isFrameworkMessage(e) ? describe(code) : e.getMessage();
        if (status >= 500) {
            LOG.errorf(e, "request failed with status %d", status);
        }
        return respond(code, message, null);
    }

    /** A Jackson failure (thrown directly or wrapped by the body reader), answered as {@link JsonProblems} words it. */
    private Response json(JsonProcessingException e) {
        return apiException(JsonProblems.of(e));
    }

    /** A body whose record refuses unknown keys ({@code @JsonIgnoreProperties(ignoreUnknown = false)}). */
    @ServerExceptionMapper
    public Response unrecognizedProperty(UnrecognizedPropertyException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response inputCoercion(InputCoercionException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response invalidFormat(InvalidFormatException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response valueInstantiation(ValueInstantiationException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response jsonMapping(JsonMappingException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        String message = e.getConstraintViolations().stream()
                .map(ErrorMappers::describe)
                .sorted()
                .collect(Collectors.joining("; "));
        return respond(ErrorCode.VALIDATION_ERROR, message.isEmpty() ? "request is not valid" : message, null);
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return respond(ErrorCode.UNAUTHORIZED, "missing or invalid bearer token", null);
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return respond(ErrorCode.UNAUTHORIZED, "missing or invalid bearer token", null);
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(ErrorCode.FORBIDDEN, "this credential may not call this endpoint", null);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        ApiException unavailable = Outages.unavailable(e);
        if (unavailable != null) {
            // An outage, not a fault: one line, no stack trace (there may be hundreds of these a second).
            LOG.warnf("dependency unreachable: %s", e);
            return apiException(unavailable);
        }
        ApiException conflict = Conflicts.conflict(e);
        if (conflict != null) {
            LOG.infof("unique-key violation answered 409: %s", conflict.getMessage());
            return apiException(conflict);
        }
        String incident = UUID.randomUUID().toString();
        LOG.errorf(e, "unexpected failure, incident %s", incident);
        return respond(ErrorCode.INTERNAL_ERROR, "internal error (incident " + incident + ")", null);
    }

    /** Builds the error response; also used by resources that must answer an error without throwing. */
    public static Response respond(ErrorCode code, String message, Long retryAfterSeconds) {
        Response.ResponseBuilder builder = Response.status(code.status())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.of(code, message));
        if (retryAfterSeconds != null) {
            builder.header("Retry-After", Math.max(1, retryAfterSeconds));
        }
        return builder.build();
    }

    static String describe(ErrorCode code) {
        return switch (code) {
            case BAD_REQUEST -> "bad request";
            case UNAUTHORIZED -> "missing or invalid credentials";
            case FORBIDDEN -> "forbidden";
            case NOT_FOUND -> "not found";
            case METHOD_NOT_ALLOWED -> "method not allowed";
            case NOT_ACCEPTABLE -> "this endpoint answers application/json only";
            case PAYLOAD_TOO_LARGE -> "request body is too large";
            case UNSUPPORTED_MEDIA_TYPE -> "unsupported Content-Type: send application/json";
            case RATE_LIMITED -> "too many requests";
            case SERVICE_UNAVAILABLE -> "service temporarily unavailable, retry later";
            default -> "internal error";
        };
    }

    private static boolean isFrameworkMessage(WebApplicationException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() || message.startsWith("HTTP ");
    }

    private static String describe(ConstraintViolation<?> violation) {
        String field = null;
        for (var node : violation.getPropertyPath()) {
            if (node.getName() != null) {
                field = node.getName();
            }
        }
        return field == null ? violation.getMessage() : "field '" + field + "' " + violation.getMessage();
    }

}
