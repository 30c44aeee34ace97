package io.pmedia.common.error;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Gives failures that happen below JAX-RS (a body over the size limit, an authentication failure raised by the
 * HTTP layer, a path no route owns) the same 2.11 body as {@link ErrorMappers}: no framework page ever leaks.
 */
@ApplicationScoped
public class HttpFailureHandler {

    private static final Logger LOG = Logger.getLogger(HttpFailureHandler.class);

    private final long maxBodySize;

    public HttpFailureHandler(
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10M") MemorySize maxBodySize) {
        this.maxBodySize = maxBodySize.asLongValue();
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::handle);
        // Runs before Quarkus' own size check, which would answer 413 with an empty body.
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String length = ctx.request().getHeader("Content-Length");
            if (length != null && tooLarge(length)) {
                ctx.response().putHeader("Connection", "close");
                write(ctx, ErrorCode.PAYLOAD_TOO_LARGE,
                        "request body is larger than the limit of " + maxBodySize + " bytes");
            } else {
                ctx.next();
            }
        });
        router.route().order(Integer.MAX_VALUE).handler(ctx -> {
            if (!ctx.response().ended()) {
                write(ctx, ErrorCode.NOT_FOUND, "no endpoint " + ctx.request().method() + " " + ctx.request().path());
            }
        });
    }

    private boolean tooLarge(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > maxBodySize;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void handle(RoutingContext ctx) {
        if (ctx.response().ended() || ctx.response().headWritten()) {
            return;
        }
        Throwable failure = ctx.failure();
        int status = ctx.statusCode();
        if (failure instanceof ApiException api) {
            if (api.retryAfter() != null) {
                ctx.response().putHeader("Retry-After", Long.toString(Math.max(1, api.retryAfter().toSeconds())));
            }
            write(ctx, api.code(), api.getMessage());
        } else if (failure instanceof AuthenticationFailedException || failure instanceof UnauthorizedException
                || status == 401) {
            write(ctx, ErrorCode.UNAUTHORIZED, "missing or invalid bearer token");
        } else if (failure instanceof ForbiddenException || status == 403) {
            write(ctx, ErrorCode.FORBIDDEN, "this credential may not call this endpoint");
        } else if (status == 413) {
            write(ctx, ErrorCode.PAYLOAD_TOO_LARGE, "request body is too large");
        } else if (status >= 400 && status < 500) {
            ErrorCode code = ErrorCode.forStatus(status);
            write(ctx, code, ErrorMappers.describe(code));
        } else {
            String incident = UUID.randomUUID().toString();
            LOG.errorf(failure, "unexpected failure below JAX-RS, incident %s", incident);
            write(ctx, ErrorCode.INTERNAL_ERROR, "internal error (incident " + incident + ")");
        }
    }

    private static void write(RoutingContext ctx, ErrorCode code, String message) {
        ctx.response()
                .setStatusCode(code.status())
                .putHeader("Content-Type", "application/json")
                .end(ErrorBody.of(code, message).toJson());
    }
}
