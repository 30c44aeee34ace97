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

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.Ids;
import io.pmedia.gateway.Client;
import io.pmedia.gateway.config.GatewayConfig;
import io.pmedia.gateway.service.CallerAddress;
import io.pmedia.gateway.service.ClientRegistry;
import io.pmedia.gateway.service.RateLimiter;
import io.pmedia.gateway.service.Secrets;
import io.pmedia.gateway.service.TokenIssuer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/** The token endpoints of interface sections 4.1 and 4.2. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
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
    private final ClientRegistry registry;

    public TokenResource(TokenIssuer issuer, RateLimiter rateLimiter, CallerAddress callerAddress,
            GatewayConfig config, ClientRegistry registry) {
        this.registry = registry;
        this.issuer = issuer;
        this.rateLimiter = rateLimiter;
        this.callerAddress = callerAddress;
        this.config = config;
    }

    @POST
    @Path("auth/token")
    @Consumes(MediaType.APPLICATION_JSON)
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
    public Uni<AccessToken> legacyToken(@QueryParam("clientId") String clientId,
            @QueryParam("clientSecret") String clientSecret, @Context HttpServerRequest request) {
        return issue(required(clientId, "clientId"), required(clientSecret, "clientSecret"), callerAddress.of(request),
                config.jwt().legacyLifetime(), true);
    }

    private Uni<AccessToken> issue(String clientId, String secret, String address, Duration lifetime,
            boolean fromAllowedAddressOnly) {
        UUID id = Ids.uuid(clientId).orElse(null);
        return Blocking.offload(() -> rateLimiter.attempt(clientId, address))
                .flatMap(wait -> {
                    wait.ifPresent(TokenResource::tooManyRequests);
                    return id == null
                            ? Uni.createFrom().<Client>nullItem()
                            : registry.find(id);
                })
                .flatMap(client -> Blocking.offload(() -> {
                    if (!Secrets.verifySecret(secret, client == null ? null : client.secretHash)) {
                        rateLimiter.failed(clientId, address);
                        throw ApiException.unauthorized("invalid client credentials");
                    }
                    if (fromAllowedAddressOnly && !CallerAddress.allowed(address, client.allowedIpList())) {
                        throw ApiException.forbidden(
                                "requests from " + address + " are not in this client's allowed-ips");
                    }
                    rateLimiter.issued(clientId).ifPresent(TokenResource::tooManyRequests);
                    return client.id;
                }))
                .map(client -> {
                    TokenIssuer.IssuedToken token = issuer.issue(client, lifetime);
                    return new AccessToken(token.token(), "Bearer", token.expiresIn());
                });
    }

    private static void tooManyRequests(Duration wait) {
        throw new ApiException(ErrorCode.RATE_LIMITED, "too many token requests, retry later", wait);
    }

    private static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw ApiException.validation("field '" + field + "' is required");
        }
        return value.strip();
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
