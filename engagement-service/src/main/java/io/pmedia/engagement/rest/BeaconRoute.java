package io.pmedia.engagement.rest;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.JsonProblems;
import io.pmedia.common.error.VendorText;
import io.pmedia.common.error.VendorTextFilter;
import io.pmedia.engagement.service.Beacons;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * {@code POST /v/{shareId}/events} (docs/sharing.md): what the share page's script reports, as
 * {@code navigator.sendBeacon} sends it (a JSON text of any Content-Type, usually {@code text/plain}). 202 at once
 * when it is on the broker (or when the viewer asked not to be counted); at most {@value #MAX_BYTES} bytes.
 * <p>
 * A plain Vert.x route rather than a JAX-RS resource: it is the platform's busiest path (every step of every viewer)
 * and the one with a throughput goal against nginx (docs/decisions.md, "The beacon route"). Its failures leave
 * through {@link io.pmedia.common.error.HttpFailureHandler}, with the same error bodies as every endpoint, and a body
 * Jackson cannot read is worded by {@link JsonProblems}, as the JAX-RS mappers word it.
 */
@ApplicationScoped
public class BeaconRoute {

    static final int MAX_BYTES = 4096;
    /** Before the JAX-RS routes, which own every other path of the service. */
    private static final int ORDER = -100;

    private final Beacons beacons;
    private final ObjectReader reader;
    private final long bodyLimit;

    /** {@code bodyLimit}: the service's own request limit, which a chunked body meets while it is read. */
    public BeaconRoute(Beacons beacons, ObjectMapper mapper,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize bodyLimit) {
        this.beacons = beacons;
        this.reader = mapper.readerFor(Beacons.Beacon.class);
        this.bodyLimit = bodyLimit.asLongValue();
    }

    void install(@Observes Router router) {
        router.post("/v/:shareId/events").order(ORDER)
                .handler(BodyHandler.create(false).setBodyLimit(bodyLimit).setMergeFormAttributes(false))
                .handler(this::event);
        // Any other method: 405, as JAX-RS answers a path it knows with a method it does not.
        router.route("/v/:shareId/events").order(ORDER + 1).handler(ctx -> {
            ctx.response().putHeader("Allow", "POST");
            ctx.fail(new ApiException(ErrorCode.METHOD_NOT_ALLOWED,
                    "method " + ctx.request().method() + " is not allowed on " + ctx.request().path()));
        });
    }

    private void event(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        Beacons.Sender sender = new Beacons.Sender(address(request.getHeader("X-Forwarded-For")),
                request.getHeader("User-Agent"), request.getHeader("DNT"), request.getHeader("Sec-GPC"),
                request.getHeader("Sec-Fetch-Site"));
        try {
            String shareId = ctx.pathParam("shareId");
            checkParameters(shareId, ctx.queryParams());
            Beacons.Beacon beacon = read(ctx.body().buffer());
            Context context = Vertx.currentContext();
            beacons.accept(shareId, beacon, sender).whenComplete((recorded, failure) -> {
                if (context == null || Vertx.currentContext() == context) {
                    answer(ctx, failure);
                } else {
                    context.runOnContext(ignored -> answer(ctx, failure));
                }
            });
        } catch (ApiException e) {
            ctx.fail(e);
        }
    }

    /** 202, or the failure through the error handler; on the request's own context. */
    private static void answer(RoutingContext ctx, Throwable failure) {
        if (failure == null) {
            ctx.response().setStatusCode(202).putHeader("Cache-Control", "no-store").end();
        } else {
            ctx.fail(failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure);
        }
    }

    /** What every JAX-RS endpoint refuses in its parameters ({@link VendorTextFilter}), refused here too. */
    private static void checkParameters(String shareId, MultiMap query) {
        VendorTextFilter.check("path parameter", Map.of("shareId", List.of(shareId)));
        if (!query.isEmpty()) {
            Map<String, List<String>> parameters = new LinkedHashMap<>();
            query.names().forEach(name -> parameters.put(name, query.getAll(name)));
            VendorTextFilter.check("query parameter", parameters);
        }
    }

    private Beacons.Beacon read(Buffer body) {
        if (body == null || body.length() == 0) {
            throw ApiException.badRequest("request body is required: the event as JSON");
        }
        if (body.length() > MAX_BYTES) {
            throw new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, "an event is at most " + MAX_BYTES + " bytes");
        }
        byte[] bytes = body.getBytes();
        if (VendorText.scan(bytes) != VendorText.Shape.OBJECT) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
        try {
            // A wrong type is answered like any body's ("field 'percent' has the wrong type").
            return reader.readValue(bytes);
        } catch (JsonProcessingException e) {
            throw JsonProblems.of(e);
        } catch (IOException e) {
            throw ApiException.badRequest("request body cannot be read");
        }
    }

    /** The viewer's address as the gateway passed it on (the first of {@code X-Forwarded-For}). */
    private static String address(String forwardedFor) {
        if (forwardedFor == null || forwardedFor.isBlank()) {
            return "unknown";
        }
        int comma = forwardedFor.indexOf(',');
        return (comma < 0 ? forwardedFor : forwardedFor.substring(0, comma)).strip();
    }
}
