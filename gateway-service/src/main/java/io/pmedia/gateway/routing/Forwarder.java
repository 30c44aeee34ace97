package io.pmedia.gateway.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.Ids;
import io.pmedia.common.error.VendorText;
import io.pmedia.common.security.Roles;
import io.pmedia.gateway.Access;
import io.pmedia.gateway.routing.RouteTable.Body;
import io.pmedia.gateway.routing.RouteTable.Cost;
import io.pmedia.gateway.routing.RouteTable.Route;
import io.pmedia.gateway.service.CallerAddress;
import io.pmedia.gateway.service.ClientRateLimits;
import io.pmedia.gateway.service.RequestAuthenticator;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Serves {@link RouteTable}: for each route, authenticate (401 before any 400), check what the gateway can check
 * without the owner (JSON syntax, uuid path parameters), forward, and hand the answer back. Plain Vert.x routes, the
 * gateway's hot path: no JAX-RS resource between the socket and the upstream client. A known path called with a
 * method it does not take is 405 with {@code Allow}.
 */
@ApplicationScoped
public class Forwarder {

    /** Before Quarkus REST's routes (which serve the gateway's own endpoints), after the request-limit checks. */
    private static final int ORDER = -100;

    private final RequestAuthenticator authenticator;
    private final ClientRateLimits rateLimits;
    private final Upstream upstream;
    private final CallerAddress callerAddress;
    private final long maxBodyBytes;

    public Forwarder(RequestAuthenticator authenticator, ClientRateLimits rateLimits, Upstream upstream,
            CallerAddress callerAddress,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10M") MemorySize maxBody) {
        this.authenticator = authenticator;
        this.rateLimits = rateLimits;
        this.upstream = upstream;
        this.callerAddress = callerAddress;
        this.maxBodyBytes = maxBody.asLongValue();
    }

    void install(@Observes Router router) {
        BodyHandler bodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes).setMergeFormAttributes(false);
        Map<String, List<HttpMethod>> methodsByPath = new LinkedHashMap<>();
        for (Route route : RouteTable.ROUTES) {
            var vertxRoute = router.route(route.method(), route.path()).order(ORDER);
            if (route.body() == Body.JSON_OBJECT) {
                vertxRoute.handler(bodies);
            }
            vertxRoute.handler(ctx -> serve(ctx, route));
            methodsByPath.computeIfAbsent(route.path(), ignored -> new ArrayList<>()).add(route.method());
            if (route.method() == HttpMethod.GET) {
                // RFC 9110 9.3.2: a GET resource takes HEAD too; forwarded as HEAD, the service answers its headers
                router.route(HttpMethod.HEAD, route.path()).order(ORDER).handler(ctx -> serve(ctx, route));
                methodsByPath.get(route.path()).add(HttpMethod.HEAD);
            }
        }
        methodsByPath.forEach((path, methods) -> {
            String allow = methods.stream().map(HttpMethod::name).distinct().collect(Collectors.joining(", "));
            router.route(path).order(ORDER + 1).handler(ctx -> {
                ctx.response().putHeader("Allow", allow);
                ctx.fail(new ApiException(ErrorCode.METHOD_NOT_ALLOWED, "method " + ctx.request().method()
                        + " is not allowed on " + ctx.request().path() + " (allowed: " + allow + ")"));
            });
        });
    }

    private void serve(RoutingContext ctx, Route route) {
        // Hibernate Reactive (an API-key lookup) runs only on a context marked safe, as Quarkus REST marks its own.
        VertxContextSafetyToggle.setCurrentContextSafe(true);
        HttpServerRequest request = ctx.request();
        Buffer body = null;
        if (route.body() == Body.JSON_OBJECT) {
            String contentType = request.getHeader("Content-Type");
            if (contentType != null && !isJson(contentType)) {
                ctx.fail(new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                        "unsupported Content-Type '" + contentType + "': send application/json"));
                return;
            }
            body = ctx.body().buffer();
        }
        Buffer payload = body;
        if (route.access() != Access.OPERATOR) {
            RequestAuthenticator.Authenticated caller = authenticator.authenticateFromMemory(
                    request.getHeader("Authorization"), request.getHeader("x-api-key"), route.access());
            if (caller != null) {
                // The hot path: no database, no Mutiny pipeline.
                forward(ctx, route, payload, admitted(route, caller));
                return;
            }
        }
        credentials(route, ctx).subscribe().with(token -> forward(ctx, route, payload, token), ctx::fail);
    }

    private void forward(RoutingContext ctx, Route route, Buffer payload, String token) {
        try {
            check(route, ctx, payload);
        } catch (ApiException e) {
            ctx.fail(e);
            return;
        }
        HttpServerRequest request = ctx.request();
        Upstream.relay(upstream.forward(route.service(), request.method(), Upstream.target(request), payload, token,
                callerAddress.of(request), requestId(request)), ctx);
    }

    /** The caller's token to forward, once its API budget lets the call through (429 otherwise). */
    private String admitted(Route route, RequestAuthenticator.Authenticated caller) {
        rateLimits.take(caller.clientId(), route.cost() == Cost.WORK).ifPresent(wait -> {
            throw new ApiException(ErrorCode.RATE_LIMITED, "too many requests from this client, retry later", wait);
        });
        return caller.forwardToken();
    }

    /** The token to forward: the caller's own, one minted for an API-key caller, or an operator token. */
    private Uni<String> credentials(Route route, RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (route.access() == Access.OPERATOR) {
            return QuarkusHttpUser.getSecurityIdentity(ctx, null).map(identity -> {
                if (!identity.hasRole(Roles.OPERATOR)) {
                    throw ApiException.unauthorized("missing or invalid admin token");
                }
                return authenticator.operatorToken();
            });
        }
        return authenticator.authenticate(request.getHeader("Authorization"), request.getHeader("x-api-key"),
                route.access()).map(caller -> {
                    rateLimits.take(caller.clientId(), route.cost() == Cost.WORK).ifPresent(wait -> {
                        throw new ApiException(ErrorCode.RATE_LIMITED,
                                "too many requests from this client, retry later",
                                wait);
                    });
                    return caller.forwardToken();
                });
    }

    private void check(Route route, RoutingContext ctx, Buffer body) {
        for (String name : route.uuids()) {
            Ids.pathUuid(name, ctx.pathParam(name));
        }
        if (route.body() == Body.JSON_OBJECT) {
            requireJsonObject(body);
        }
    }

    /** A JSON object that follows the text rule ({@link VendorText}): refused here, it never reaches a service. */
    private static void requireJsonObject(Buffer body) {
        if (body == null || body.length() == 0) {
            throw ApiException.badRequest("request body is required");
        }
        if (VendorText.scan(body.getBytes()) != VendorText.Shape.OBJECT) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
    }

    private static boolean isJson(String contentType) {
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return type.toLowerCase(Locale.ROOT).equals("application/json");
    }

    private static String requestId(HttpServerRequest request) {
        String given = request.getHeader("X-Request-Id");
        return given == null || given.isBlank() || given.length() > 100 ? UUID.randomUUID().toString() : given;
    }
}
