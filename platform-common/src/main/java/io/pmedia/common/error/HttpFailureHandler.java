package io.pmedia.common.error;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Gives failures that happen below JAX-RS (a chunked body over the size limit, an authentication failure raised by
 * the HTTP layer, an unreachable database met by a Vert.x route, a path no route owns) the same 2.11 body as
 * {@link ErrorMappers}: no framework page ever leaks. Size limits of the request itself: {@link HttpEdge}.
 */
@ApplicationScoped
public class HttpFailureHandler {

    private static final Logger LOG = Logger.getLogger(HttpFailureHandler.class);

    private final HttpEdge limits;

    public HttpFailureHandler(HttpEdge limits) {
        this.limits = limits;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::handle);
        router.route().order(Integer.MAX_VALUE).handler(ctx -> {
            if (!ctx.response().ended()) {
                write(ctx, ErrorCode.NOT_FOUND, "no endpoint " + ctx.request().method() + " " + ctx.request().path());
            }
        });
    }

    private void handle(RoutingContext ctx) {
        if (ctx.response().ended() || ctx.response().headWritten()) {
            return;
        }
        Throwable failure = ctx.failure();
        int status = ctx.statusCode();
        ApiException api = failure instanceof ApiException known ? known : Outages.unavailable(failure);
        if (api == null && failure != null) {
            api = Conflicts.conflict(failure);
        }
        if (api != null) {
            if (api != failure && api.code() == ErrorCode.SERVICE_UNAVAILABLE) {
                LOG.warnf("dependency unreachable: %s", failure);
            }
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
            // A chunked body that grew over the limit while Quarkus read it (a declared one never gets this far).
            ctx.response().putHeader("Connection", "close");
            write(ctx, ErrorCode.PAYLOAD_TOO_LARGE, limits.bodyTooLarge());
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
        write(ctx, code.status(), code, message);
    }

    /** Ends the response with the error body; {@code status} differs from the code's own only for 414 and 431. */
    static void write(RoutingContext ctx, int status, ErrorCode code, String message) {
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(ErrorBody.of(code, message).toJson());
    }
}
