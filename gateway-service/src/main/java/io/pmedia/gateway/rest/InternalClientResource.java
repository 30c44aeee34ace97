package io.pmedia.gateway.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pmedia.gateway.rest.ClientDtos.WebhookRegistration;
import io.pmedia.gateway.service.ClientRegistry;
import io.pmedia.gateway.service.RequestAuthenticator;
import io.smallrye.mutiny.Uni;

/** What other services may read of the client registry, behind the internal service token. */
@Path("/internal/clients")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Internal")
public class InternalClientResource {

    private final ClientRegistry registry;
    private final RequestAuthenticator authenticator;

    public InternalClientResource(ClientRegistry registry, RequestAuthenticator authenticator) {
        this.registry = registry;
        this.authenticator = authenticator;
    }

    @GET
    @Path("{clientId}")
    @Operation(hidden = true, summary = "A client's webhook URL and signing secrets (notifier-service)")

    public Uni<WebhookRegistration> webhook(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") String clientId) {
        authenticator.requireInternal(authorization);
        return registry.webhookRegistration(AdminClientResource.id(clientId));
    }
}
