package io.pmedia.gateway.rest;

import java.util.List;
import java.util.UUID;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.common.error.ApiException;
import io.pmedia.gateway.rest.ClientDtos.ClientView;
import io.pmedia.gateway.rest.ClientDtos.NewClient;
import io.pmedia.gateway.rest.ClientDtos.RotatedApiKey;
import io.pmedia.gateway.rest.ClientDtos.RotatedSecret;
import io.pmedia.gateway.rest.ClientDtos.RotatedWebhookSecret;
import io.pmedia.gateway.service.ActiveClients;
import io.pmedia.gateway.service.ClientRegistry;
import io.pmedia.gateway.service.RequestAuthenticator;
import io.smallrye.mutiny.Uni;

/** The operator's onboarding API (contracts.md, "Vendor onboarding"), behind the admin token. */
@Path("/admin/clients")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Operator: clients")
public class AdminClientResource {

    private final ClientRegistry registry;
    private final RequestAuthenticator authenticator;
    private final ActiveClients activeClients;

    public AdminClientResource(ClientRegistry registry, RequestAuthenticator authenticator,
            ActiveClients activeClients) {
        this.registry = registry;
        this.authenticator = authenticator;
        this.activeClients = activeClients;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Onboard a vendor; the answer is the only time its secrets are shown")
    public Uni<Response> onboard(@HeaderParam("Authorization") String authorization, NewClient request) {
        authenticator.requireOperator(authorization);
        return registry.onboard(request).map(created -> Response.status(Response.Status.CREATED).entity(created)
                .build());
    }

    @GET
    @Operation(summary = "List vendors")
    public Uni<List<ClientView>> list(@HeaderParam("Authorization") String authorization) {
        authenticator.requireOperator(authorization);
        return registry.list();
    }

    @GET
    @Path("{clientId}")
    @Operation(summary = "Read a vendor (no secrets)")
    public Uni<ClientView> get(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId) {
        authenticator.requireOperator(authorization);
        return registry.get(id(clientId));
    }

    @PATCH
    @Path("{clientId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change name, webhook-url (null removes it) or allowed-ips")
    public Uni<ClientView> update(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId, JsonNode patch) {
        authenticator.requireOperator(authorization);
        return registry.update(id(clientId), patch);
    }

    @POST
    @Path("{clientId}/rotate-secret")
    @Operation(summary = "Issue a new client secret; the old one stops working")
    public Uni<RotatedSecret> rotateSecret(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId) {
        authenticator.requireOperator(authorization);
        return registry.rotateSecret(id(clientId));
    }

    @POST
    @Path("{clientId}/rotate-api-key")
    @Operation(summary = "Issue a new API key; the old one stops working")
    public Uni<RotatedApiKey> rotateApiKey(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId) {
        authenticator.requireOperator(authorization);
        return registry.rotateApiKey(id(clientId));
    }

    @POST
    @Path("{clientId}/rotate-webhook-secret")
    @Operation(summary = "Issue a new webhook secret; pushes carry both signatures for 24 hours")
    public Uni<RotatedWebhookSecret> rotateWebhookSecret(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId) {
        authenticator.requireOperator(authorization);
        return registry.rotateWebhookSecret(id(clientId));
    }

    @DELETE
    @Path("{clientId}")
    @Operation(summary = "Delete (revoke) a vendor: its tokens and keys stop working")
    public Uni<Response> delete(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId) {
        authenticator.requireOperator(authorization);
        UUID id = id(clientId);
        return registry.delete(id).invoke(() -> activeClients.evict(id)).replaceWith(Response.noContent().build());
    }

    static UUID id(String clientId) {
        try {
            return UUID.fromString(clientId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("client " + clientId + " not found");
        }
    }
}
