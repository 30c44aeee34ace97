package io.pmedia.notifier.client;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.smallrye.mutiny.Uni;

/** The gateway's internal client registry API. Used only through {@link ClientRegistryClient}. */
@RegisterRestClient(configKey = "gateway")
@Path("/internal/clients")
@Produces(MediaType.APPLICATION_JSON)
public interface GatewayClient {

    @GET
    @Path("{clientId}")
    Uni<WebhookRegistration> client(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") UUID clientId);
}
