package io.pmedia.gateway.rest;

import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.error.Ids;
import io.pmedia.common.security.Roles;
import io.pmedia.gateway.rest.ClientDtos.ClientView;
import io.pmedia.gateway.rest.ClientDtos.NewClient;
import io.pmedia.gateway.rest.ClientDtos.OnboardedClient;
import io.pmedia.gateway.rest.ClientDtos.RotatedApiKey;
import io.pmedia.gateway.rest.ClientDtos.RotatedSecret;
import io.pmedia.gateway.rest.ClientDtos.RotatedWebhookSecret;
import io.pmedia.gateway.service.ActiveClients;
import io.pmedia.gateway.service.ClientRegistry;
import io.smallrye.mutiny.Uni;

/** The operator's onboarding API (contracts.md, "Vendor onboarding"), behind the admin token. */
@Path("/admin/clients")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPERATOR)
public class AdminClientResource {

    private final ClientRegistry registry;
    private final ActiveClients activeClients;
    private final ObjectMapper mapper;

    public AdminClientResource(ClientRegistry registry, ActiveClients activeClients, ObjectMapper mapper) {
        this.registry = registry;
        this.activeClients = activeClients;
        this.mapper = mapper;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> onboard(JsonNode body) throws JsonProcessingException {
        if (body == null || body.isNull()) {
            throw ApiException.validation("request body is required");
        }
        Fields.onlyKnown(body, NewClient.FIELDS);
        // A wrong type is answered by the error layer like any body's ("field 'allowed-ips' has the wrong type").
        NewClient request = mapper.treeToValue(body, NewClient.class);
        return registry.onboard(request.name(), request.webhookUrl(), request.allowedIps(), request.sharing())
                .map(created -> Response.status(Response.Status.CREATED).entity(OnboardedClient.of(created)).build());
    }

    @GET
    public Uni<List<ClientView>> list() {
        return registry.list().map(clients -> clients.stream().map(ClientView::of).toList());
    }

    @GET
    @Path("{clientId}")
    public Uni<ClientView> get(@PathParam("clientId") String clientId) {
        return registry.get(id(clientId)).map(ClientView::of);
    }

    @PATCH
    @Path("{clientId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<ClientView> update(@PathParam("clientId") String clientId, JsonNode patch) {
        return registry.update(id(clientId), patch).map(ClientView::of);
    }

    @POST
    @Path("{clientId}/rotate-secret")
    public Uni<RotatedSecret> rotateSecret(@PathParam("clientId") String clientId) {
        return registry.rotateSecret(id(clientId))
                .map(issued -> new RotatedSecret(issued.client().id, issued.value()));
    }

    @POST
    @Path("{clientId}/rotate-api-key")
    public Uni<RotatedApiKey> rotateApiKey(@PathParam("clientId") String clientId) {
        return registry.rotateApiKey(id(clientId))
                .map(issued -> new RotatedApiKey(issued.client().id, issued.value()));
    }

    @POST
    @Path("{clientId}/rotate-webhook-secret")
    public Uni<RotatedWebhookSecret> rotateWebhookSecret(@PathParam("clientId") String clientId) {
        return registry.rotateWebhookSecret(id(clientId)).map(client -> new RotatedWebhookSecret(client.id,
                client.webhookSecret, client.previousWebhookExpiresAt));
    }

    @DELETE
    @Path("{clientId}")
    public Uni<Response> delete(@PathParam("clientId") String clientId) {
        UUID id = id(clientId);
        return registry.delete(id).invoke(() -> activeClients.evict(id)).replaceWith(Response.noContent().build());
    }

    static UUID id(String clientId) {
        return Ids.uuid(clientId).orElseThrow(() -> ApiException.notFound("client " + clientId + " not found"));
    }
}
