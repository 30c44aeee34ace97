package io.pmedia.gateway.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.pmedia.gateway.service.TokenIssuer;

/** The public keys that verify the gateway's tokens, for the domain services and anyone else. */
@Path("/.well-known/jwks.json")
public class JwksResource {

    private final TokenIssuer issuer;

    public JwksResource(TokenIssuer issuer) {
        this.issuer = issuer;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response jwks() {
        return Response.ok(issuer.jwks()).header("Cache-Control", "public, max-age=300").build();
    }
}
