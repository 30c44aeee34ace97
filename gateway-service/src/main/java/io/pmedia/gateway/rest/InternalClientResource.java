package io.pmedia.gateway.rest;

import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.pmedia.common.error.ApiException;
import io.pmedia.gateway.rest.ClientDtos.RotatedWebhookSecret;
import io.pmedia.gateway.rest.ClientDtos.WebhookEndpoint;
import io.pmedia.gateway.rest.ClientDtos.WebhookRegistration;
import io.pmedia.gateway.security.ServiceTokenMechanism;
import io.pmedia.gateway.service.ClientRegistry;
import io.smallrye.mutiny.Uni;

/** What other services may read of the client registry, behind the internal service token. */
@Path("/internal/clients")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(ServiceTokenMechanism.INTERNAL)
public class InternalClientResource {

    private final ClientRegistry registry;

    public InternalClientResource(ClientRegistry registry) {
        this.registry = registry;
    }

    @GET
    @Path("{clientId}")
    public Uni<WebhookRegistration> webhook(@PathParam("clientId") String clientId) {
        return registry.webhookRegistration(AdminClientResource.id(clientId)).map(WebhookRegistration::of);
    }

    /** The vendor's share page settings: engagement-service's branding and framing, media-service's retention. */
    @GET
    @Path("{clientId}/sharing")
    public Uni<ClientDtos.Sharing> sharing(@PathParam("clientId") String clientId) {
        return registry.get(AdminClientResource.id(clientId)).map(ClientDtos.Sharing::of);
    }

    /**
     * Replaces the client's webhook endpoint (the vendor's {@code PUT /webhooks/endpoint}, which the notifier serves):
     * the URL under the onboarding address policy, the event types; answers the registration as {@code GET} does.
     */
    @PUT
    @Path("{clientId}/webhook")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<WebhookRegistration> replaceWebhook(@PathParam("clientId") String clientId, WebhookEndpoint endpoint) {
        if (endpoint == null) {
            throw ApiException.validation("request body is required");
        }
        return registry.replaceWebhook(AdminClientResource.id(clientId), endpoint.url(), endpoint.eventTypes())
                .map(WebhookRegistration::of);
    }

    /** A new webhook secret for the client (the vendor's {@code POST /webhooks/endpoint/rotate-secret}). */
    @POST
    @Path("{clientId}/rotate-webhook-secret")
    public Uni<RotatedWebhookSecret> rotateWebhookSecret(@PathParam("clientId") String clientId) {
        return registry.rotateWebhookSecret(AdminClientResource.id(clientId)).map(client -> new RotatedWebhookSecret(
                client.id, client.webhookSecret, client.previousWebhookExpiresAt));
    }

    /**
     * 204 while the client exists, 404 once deleted (or never created): every service's revocation check
     * (platform-common {@code RevocationCheck}, which keeps the answer 2 s). Read from the database, not from this
     * replica's {@code ActiveClients}, so the delay a service sees is its own cache and no more.
     */
    @GET
    @Path("{clientId}/active")
    public Uni<Void> active(@PathParam("clientId") String clientId) {
        UUID id = AdminClientResource.id(clientId);
        return registry.get(id).replaceWithVoid();
    }
}
