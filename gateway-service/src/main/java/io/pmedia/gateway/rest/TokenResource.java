package io.pmedia.gateway.rest;

import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.gateway.Client;
import io.pmedia.gateway.config.GatewayConfig;
import io.pmedia.gateway.service.CallerAddress;
import io.pmedia.gateway.service.RateLimiter;
import io.pmedia.gateway.service.Secrets;
import io.pmedia.gateway.service.TokenIssuer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/** The token endpoints of interface sections 4.1 and 4.2. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Authentication")
public class TokenResource {

    /** Interface 2.2. */
    public record Credentials(@JsonProperty("client_id") String clientId,
            @JsonProperty("client_secret") String clientSecret) {
    }

    /** Interface 2.1. */
    public record AccessToken(@JsonProperty("access_token") String accessToken,
            @JsonProperty("token_type") String tokenType, @JsonProperty("expires_in") long expiresIn) {
    }

    private final TokenIssuer issuer;
    private final RateLimiter rateLimiter;
    private final CallerAddress callerAddress;
    private final GatewayConfig config;

    public TokenResource(TokenIssuer issuer, RateLimiter rateLimiter, CallerAddress callerAddress,
            GatewayConfig config) {
        this.issuer = issuer;
        this.rateLimiter = rateLimiter;
        this.callerAddress = callerAddress;
        this.config = config;
    }

    @POST
    @Path("auth/token")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Obtain an access token (client credentials as JSON)")
    public Uni<AccessToken> token(Credentials credentials, @Context HttpServerRequest request) {
        if (credentials == null) {
            throw ApiException.validation("request body with client_id and client_secret is required");
        }
        return issue(required(credentials.clientId(), "client_id"),
                required(credentials.clientSecret(), "client_secret"), callerAddress.of(request),
                config.jwt().lifetime(), false);
    }

    /** The same, as the OAuth 2.0 client-credentials grant (RFC 6749 4.4): form fields or HTTP Basic. */
    @POST
    @Path("auth/token")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Obtain an access token (OAuth 2.0 client_credentials grant)")
    public Uni<AccessToken> tokenForm(@FormParam("grant_type") String grantType,
            @FormParam("client_id") String clientId, @FormParam("client_secret") String clientSecret,
            @HeaderParam("Authorization") String authorization, @Context HttpServerRequest request) {
        if (!"client_credentials".equals(grantType)) {
            throw ApiException.validation("field 'grant_type' must be 'client_credentials'");
        }
        String[] basic = basicCredentials(authorization);
        if (basic != null) {
            clientId = basic[0];
            clientSecret = basic[1];
        }
        return issue(required(clientId, "client_id"), required(clientSecret, "client_secret"),
                callerAddress.of(request), config.jwt().lifetime(), false);
    }

    @GET
    @Path("getToken")
    @Operation(summary = "Obtain an access token (earlier form; only from the client's allowed IP addresses)")
    public Uni<AccessToken> legacyToken(@QueryParam("clientId") String clientId,
            @QueryParam("clientSecret") String clientSecret, @Context HttpServerRequest request) {
        return issue(required(clientId, "clientId"), required(clientSecret, "clientSecret"), callerAddress.of(request),
                config.jwt().legacyLifetime(), true);
    }

    private Uni<AccessToken> issue(String clientId, String secret, String address, Duration lifetime,
            boolean fromAllowedAddressOnly) {
        rateLimiter.attempt(clientId, address).ifPresent(wait -> {
            throw new ApiException(ErrorCode.RATE_LIMITED, "too many token requests, retry later", wait);
        });
        UUID id = uuidOrNull(clientId);
        Uni<Client> lookup = id == null
                ? Uni.createFrom().nullItem()
                : Panache.withSession(() -> Client.findActive(id));
        return lookup.flatMap(client -> Blocking
                .offload(() -> Secrets.verifySecret(secret, client == null ? null : client.secretHash))
                .map(valid -> {
                    if (!valid) {
                        rateLimiter.failed(clientId);
                        throw ApiException.unauthorized("invalid client credentials");
                    }
                    if (fromAllowedAddressOnly && !CallerAddress.allowed(address, client.allowedIpList())) {
                        throw ApiException.forbidden(
                                "requests from " + address + " are not in this client's allowed-ips");
                    }
                    TokenIssuer.IssuedToken token = issuer.issue(client.id, lifetime);
                    return new AccessToken(token.token(), "Bearer", token.expiresIn());
                }));
    }

    private static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw ApiException.validation("field '" + field + "' is required");
        }
        return value.strip();
    }

    private static UUID uuidOrNull(String value) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String[] basicCredentials(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()),
                    java.nio.charset.StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                return null;
            }
            return new String[]{java.net.URLDecoder.decode(decoded.substring(0, colon),
                    java.nio.charset.StandardCharsets.UTF_8),
                    java.net.URLDecoder.decode(decoded.substring(colon + 1), java.nio.charset.StandardCharsets.UTF_8)};
        } catch (IllegalArgumentException e) {
            throw ApiException.unauthorized("malformed Basic credentials");
        }
    }
}
