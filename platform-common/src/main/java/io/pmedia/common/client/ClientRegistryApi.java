package io.pmedia.common.client;

import java.util.UUID;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.smallrye.mutiny.Uni;

/**
 * The gateway's internal client registry API ({@code /internal/clients}, behind the internal service token). Used
 * only through {@link ClientRegistryClient}, which owns its address, timeouts and retries.
 */
@RegisterRestClient
@Path("/internal/clients")
@Produces(MediaType.APPLICATION_JSON)
public interface ClientRegistryApi {

    /** A client's webhook URL and signing secrets; 404 when the client does not exist. */
    @GET
    @Path("{clientId}")
    Uni<WebhookRegistration> client(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") UUID clientId);

    /** The client's share page settings; 404 when the client does not exist. */
    @GET
    @Path("{clientId}/sharing")
    Uni<SharingSettings> sharing(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") UUID clientId);

    /**
     * Replaces the client's webhook endpoint ({@code webhook-url}, {@code event-types}) and answers its registration;
     * 400 with the reason when the URL breaks the address policy or an event type is unknown, 404 for no such client.
     */
    @PUT
    @Path("{clientId}/webhook")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<WebhookRegistration> replaceWebhook(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") UUID clientId, WebhookEndpoint endpoint);

    /** Issues a new webhook secret; the previous one keeps signing for 24 hours. */
    @POST
    @Path("{clientId}/rotate-webhook-secret")
    Uni<RotatedWebhookSecret> rotateWebhookSecret(@HeaderParam("Authorization") String authorization,
            @PathParam("clientId") UUID clientId);

    /** 204 when the client exists, 404 when it was deleted or never existed. */
    @GET
    @Path("{clientId}/active")
    Uni<Void> active(@HeaderParam("Authorization") String authorization, @PathParam("clientId") UUID clientId);
}
