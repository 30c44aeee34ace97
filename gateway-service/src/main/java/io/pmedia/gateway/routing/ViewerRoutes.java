package io.pmedia.gateway.routing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.gateway.service.CallerAddress;
import io.pmedia.gateway.service.ViewerLimits;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * The public share pages (docs/sharing.md): {@code /v/} is routed to engagement-service without credentials, under a
 * budget per source address ({@link ViewerLimits}). Only what a page needs of the viewer's request goes on (the
 * browser's agent, its privacy signals, conditional and beacon headers; never a cookie or an Authorization), and the
 * page's own security and caching headers come back. A beacon body is at most {@value #MAX_BEACON_BYTES} bytes.
 */
@ApplicationScoped
public class ViewerRoutes {

    static final int MAX_BEACON_BYTES = 4096;
    private static final int ORDER = -100;
    /** The viewers' paths that take a POST, and only a POST. */
    private static final Pattern POSTED = Pattern.compile("/v/[^/]+/(events|render)");
    private static final String[] PASSED_ON = {"User-Agent", "Accept", "Accept-Language", "DNT", "Sec-GPC",
            "Content-Type", "If-None-Match", "If-Modified-Since", "Origin", "Referer", "Sec-Fetch-Dest",
            "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Purpose", "Purpose"};

    private final Upstream upstream;
    private final ViewerLimits limits;
    private final CallerAddress callerAddress;

    public ViewerRoutes(Upstream upstream, ViewerLimits limits, CallerAddress callerAddress) {
        this.upstream = upstream;
        this.limits = limits;
        this.callerAddress = callerAddress;
    }

    void install(@Observes Router router) {
        BodyHandler beacons = BodyHandler.create(false).setBodyLimit(MAX_BEACON_BYTES).setMergeFormAttributes(false);
        router.route(HttpMethod.POST, "/v/:shareId/events").order(ORDER).handler(beacons)
                .handler(ctx -> serve(ctx, ctx.body().buffer()));
        // A viewer's retry of a video rendered on first view whose render failed (no body).
        router.route(HttpMethod.POST, "/v/:shareId/render").order(ORDER).handler(ctx -> serve(ctx, null));
        // the two posted paths are nothing else (registered first: the same order keeps the order of registration)
        router.routeWithRegex(POSTED.pattern()).order(ORDER).handler(ViewerRoutes::notAllowed);
        router.route(HttpMethod.GET, "/v/*").order(ORDER).handler(ctx -> serve(ctx, null));
        router.route(HttpMethod.HEAD, "/v/*").order(ORDER).handler(ctx -> serve(ctx, null));
        router.route("/v/*").order(ORDER + 1).handler(ViewerRoutes::notAllowed);
    }

    /** 405 with what the path does take: POST for a beacon or a retry, GET and HEAD for the rest (RFC 9110 15.5.6). */
    private static void notAllowed(RoutingContext ctx) {
        ctx.response().putHeader("Allow", POSTED.matcher(ctx.request().path()).matches() ? "POST" : "GET, HEAD");
        ctx.fail(new ApiException(ErrorCode.METHOD_NOT_ALLOWED, "method " + ctx.request().method()
                + " is not allowed on " + ctx.request().path()));
    }

    private void serve(RoutingContext ctx, Buffer body) {
        HttpServerRequest request = ctx.request();
        String address = callerAddress.of(request);
        var wait = limits.take(address);
        if (wait.isPresent()) {
            ctx.fail(new ApiException(ErrorCode.RATE_LIMITED, "too many requests from this address, retry later",
                    wait.get()));
            return;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : PASSED_ON) {
            String value = request.getHeader(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        Upstream.relay(upstream.forwardViewer(request.method(), Upstream.target(request), headers, body, address,
                UUID.randomUUID().toString()), ctx);
    }
}
