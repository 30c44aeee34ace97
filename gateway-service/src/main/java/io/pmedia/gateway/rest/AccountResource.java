package io.pmedia.gateway.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.gateway.Access;
import io.pmedia.gateway.rest.ClientDtos.ClientView;
import io.pmedia.gateway.service.ClientRateLimits;
import io.pmedia.gateway.service.ClientRegistry;
import io.pmedia.gateway.service.RequestAuthenticator;
import io.smallrye.mutiny.Uni;

/**
 * {@code GET /account}: the calling vendor's own record (its name, webhook URL, allowed addresses, share settings;
 * never a secret), as the operator reads it at {@code GET /admin/clients/{id}}. The console shows the name in its
 * header. Authenticated like a forwarded call with the bearer token and counted in the caller's budget.
 */
@Path("/account")
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {

    private final RequestAuthenticator authenticator;
    private final ClientRateLimits rateLimits;
    private final ClientRegistry registry;

    public AccountResource(RequestAuthenticator authenticator, ClientRateLimits rateLimits, ClientRegistry registry) {
        this.authenticator = authenticator;
        this.rateLimits = rateLimits;
        this.registry = registry;
    }

    @GET
    public Uni<ClientView> get(@HeaderParam("Authorization") String authorization) {
        return authenticator.authenticate(authorization, null, Access.BEARER).flatMap(caller -> {
            rateLimits.take(caller.clientId(), false).ifPresent(wait -> {
                throw new ApiException(ErrorCode.RATE_LIMITED, "too many requests from this client, retry later", wait);
            });
            return registry.get(caller.clientId());
        }).map(ClientView::of);
    }
}
