package io.pmedia.gateway.rest;

import java.io.IOException;
import java.util.UUID;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.error.ApiException;
import io.pmedia.gateway.routing.Upstream;
import io.pmedia.gateway.routing.Upstream.Service;
import io.pmedia.gateway.service.CallerAddress;
import io.pmedia.gateway.service.RequestAuthenticator;
import io.pmedia.gateway.service.RequestAuthenticator.Scheme;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/**
 * The public interface (section 4, rows 3-11) and the vendor extras, routed to the services that own them. The
 * gateway authenticates (section 5), checks what it can check without the owner (JSON syntax, identifier shapes),
 * and forwards; the schemas are in {@code META-INF/openapi.yaml}.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class ApiRoutes {

    private final RequestAuthenticator authenticator;
    private final Upstream upstream;
    private final CallerAddress callerAddress;
    private final ObjectMapper mapper;

    public ApiRoutes(RequestAuthenticator authenticator, Upstream upstream, CallerAddress callerAddress,
            ObjectMapper mapper) {
        this.authenticator = authenticator;
        this.upstream = upstream;
        this.callerAddress = callerAddress;
        this.mapper = mapper;
    }

    /** The credentials and context of one call. */
    public record Call(String authorization, String apiKey, String requestId, HttpServerRequest request,
            UriInfo uri) {
    }

    @POST
    @Path("media/demo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> mediaDemo(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri,
            byte[] body) {
        return json(Service.MEDIA, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), body);
    }

    @POST
    @Path("video/demo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> videoDemo(@HeaderParam("Authorization") String authorization,
            @HeaderParam("x-api-key") String apiKey, @HeaderParam("X-Request-Id") String requestId,
            @Context HttpServerRequest request, @Context UriInfo uri, byte[] body) {
        return json(Service.MEDIA, Scheme.KEY_AND_BEARER, new Call(authorization, apiKey, requestId, request, uri),
                body);
    }

    @GET
    @Path("status/{transactionId}")
    @Operation(hidden = true)
    public Uni<Response> status(@HeaderParam("Authorization") String authorization,
            @HeaderParam("x-api-key") String apiKey, @HeaderParam("X-Request-Id") String requestId,
            @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.MEDIA, Scheme.KEY_OR_BEARER, new Call(authorization, apiKey, requestId, request, uri),
                null);
    }

    @GET
    @Path("templates")
    @Operation(hidden = true)
    public Uni<Response> templates(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.MEDIA, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), null);
    }

    @GET
    @Path("templates/{templateId}")
    @Operation(hidden = true)
    public Uni<Response> template(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.MEDIA, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), null);
    }

    @POST
    @Path("media/task/create")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> createTask(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri,
            byte[] body) {
        return json(Service.BATCH, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), body);
    }

    @GET
    @Path("media/task/status/{taskId}")
    @Operation(hidden = true)
    public Uni<Response> taskStatus(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @PathParam("taskId") String taskId,
            @Context HttpServerRequest request, @Context UriInfo uri) {
        Call call = new Call(authorization, null, requestId, request, uri);
        return authenticated(Scheme.BEARER, call, () -> requireUuid(taskId, "taskId"))
                .flatMap(token -> send(Service.BATCH, call, null, token));
    }

    @POST
    @Path("media/task/cancel/{taskId}")
    @Operation(hidden = true)
    public Uni<Response> cancelTask(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @PathParam("taskId") String taskId,
            @Context HttpServerRequest request, @Context UriInfo uri) {
        Call call = new Call(authorization, null, requestId, request, uri);
        return authenticated(Scheme.BEARER, call, () -> requireUuid(taskId, "taskId"))
                .flatMap(token -> send(Service.BATCH, call, null, token));
    }

    @POST
    @Path("vton/request")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> tryOn(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri,
            byte[] body) {
        return json(Service.VTON, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), body);
    }

    @GET
    @Path("vton/status/{requestId}")
    @Operation(hidden = true)
    public Uni<Response> tryOnStatus(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.VTON, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), null);
    }

    @POST
    @Path("campaigns/{campaign_id}/schedule")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> schedule(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri,
            byte[] body) {
        return json(Service.CAMPAIGN, Scheme.BEARER, new Call(authorization, null, requestId, request, uri), body);
    }

    @GET
    @Path("campaigns/{campaign_id}/schedule")
    @Operation(hidden = true)
    public Uni<Response> readSchedule(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.CAMPAIGN, Scheme.BEARER, new Call(authorization, null, requestId, request, uri),
                null);
    }

    @GET
    @Path("webhooks/deliveries")
    @Operation(hidden = true)
    public Uni<Response> deliveries(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.NOTIFIER, Scheme.BEARER, new Call(authorization, null, requestId, request, uri),
                null);
    }

    @POST
    @Path("webhooks/deliveries/{deliveryId}/replay")
    @Operation(hidden = true)
    public Uni<Response> replay(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.NOTIFIER, Scheme.BEARER, new Call(authorization, null, requestId, request, uri),
                null);
    }

    @POST
    @Path("webhooks/test")
    @Operation(hidden = true)
    public Uni<Response> testWebhook(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return forward(Service.NOTIFIER, Scheme.BEARER, new Call(authorization, null, requestId, request, uri),
                null);
    }

    @GET
    @Path("admin/templates")
    @Operation(hidden = true)
    public Uni<Response> listTemplates(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        authenticator.requireOperator(authorization);
        return send(Service.MEDIA, new Call(authorization, null, requestId, request, uri), null,
                authenticator.operatorToken());
    }

    @GET
    @Path("admin/templates/{path: .+}")
    @Operation(hidden = true)
    public Uni<Response> readTemplate(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri) {
        return listTemplates(authorization, requestId, request, uri);
    }

    @POST
    @Path("admin/templates")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> registerTemplate(@HeaderParam("Authorization") String authorization,
            @HeaderParam("X-Request-Id") String requestId, @Context HttpServerRequest request, @Context UriInfo uri,
            byte[] body) {
        authenticator.requireOperator(authorization);
        requireJsonObject(body);
        return send(Service.MEDIA, new Call(authorization, null, requestId, request, uri), body,
                authenticator.operatorToken());
    }

    private Uni<Response> json(Service service, Scheme scheme, Call call, byte[] body) {
        return authenticated(scheme, call, () -> requireJsonObject(body))
                .flatMap(token -> send(service, call, body, token));
    }

    private Uni<Response> forward(Service service, Scheme scheme, Call call, byte[] body) {
        return authenticated(scheme, call, () -> {
        }).flatMap(token -> send(service, call, body, token));
    }

    /** Authenticates first (401 before any 400), then runs the gateway's own input checks. */
    private Uni<String> authenticated(Scheme scheme, Call call, Runnable checks) {
        return authenticator.authenticate(call.authorization(), call.apiKey(), scheme).map(caller -> {
            checks.run();
            return caller.forwardToken();
        });
    }

    private Uni<Response> send(Service service, Call call, byte[] body, String token) {
        var requestUri = call.uri().getRequestUri();
        String target = requestUri.getRawPath() + (requestUri.getRawQuery() == null
                ? ""
                : "?"
                        + requestUri.getRawQuery());
        String requestId = call.requestId() == null || call.requestId().isBlank() || call.requestId().length() > 100
                ? UUID.randomUUID().toString()
                : call.requestId();
        return upstream.forward(service, call.request().method().name(), target, body,
                body == null ? null : MediaType.APPLICATION_JSON, token, callerAddress.of(call.request()), requestId);
    }

    private void requireJsonObject(byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("request body is required");
        }
        JsonNode parsed;
        try {
            parsed = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw ApiException.badRequest("malformed JSON" + where);
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON");
        }
        if (parsed == null || !parsed.isObject()) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
    }

    private static void requireUuid(String value, String name) {
        try {
            UUID.fromString(value);
            if (value.length() != 36) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw ApiException.validation(name + " '" + value + "' is not a valid uuid");
        }
    }
}
