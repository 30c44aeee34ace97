package io.pmedia.gateway.service;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.error.ApiException;
import io.pmedia.gateway.Access;
import io.pmedia.gateway.repository.ClientStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Authenticates a call to the public interface and decides which token is forwarded downstream. Domain services
 * learn who is calling from a verified token only: the caller's own token, or, for an API-key-only call, one the
 * gateway mints for that client.
 */
@ApplicationScoped
public class RequestAuthenticator {

    /** A caller that passed: its client id and the bearer token to forward. */
    public record Authenticated(UUID clientId, String forwardToken) {
    }

    private final TokenVerifier verifier;
    private final TokenIssuer issuer;
    private final ActiveClients activeClients;
    private final ClientStore clients;

    public RequestAuthenticator(TokenVerifier verifier, TokenIssuer issuer, ActiveClients activeClients,
            ClientStore clients) {
        this.activeClients = activeClients;
        this.clients = clients;
        this.verifier = verifier;
        this.issuer = issuer;
    }

    /**
     * The caller, when it can be decided without a database round trip (a remembered token of a client known to be
     * active: the hot path); {@code null} when {@link #authenticate} must ask the database. Throws 401 for
     * credentials that cannot pass.
     */
    public Authenticated authenticateFromMemory(String authorization, String apiKey, Access scheme) {
        Presented presented = presented(authorization, apiKey, scheme);
        if (presented.keyGiven() || !activeClients.knownActive(presented.tokenClient())) {
            return null;
        }
        return new Authenticated(presented.tokenClient(), presented.token());
    }

    public Uni<Authenticated> authenticate(String authorization, String apiKey, Access scheme) {
        Presented presented;
        try {
            presented = presented(authorization, apiKey, scheme);
        } catch (ApiException e) {
            return Uni.createFrom().failure(e);
        }
        String token = presented.token();
        UUID tokenClient = presented.tokenClient();
        if (!presented.keyGiven()) {
            return activeClients.isActive(tokenClient).flatMap(active -> active
                    ? Uni.createFrom().item(new Authenticated(tokenClient, token))
                    : unauthorized("invalid or expired bearer token"));
        }
        // programmatic: only an API-key caller needs the database; a bearer token is checked without a session
        return Panache.withSession(() -> clients.findActiveByApiKeyHash(Secrets.hashApiKey(apiKey.strip())))
                .flatMap(keyClient -> {
                    if (keyClient == null) {
                        return unauthorized("invalid API key");
                    }
                    if (tokenClient == null) {
                        return Uni.createFrom().item(new Authenticated(keyClient.id,
                                issuer.forwardToken(keyClient.id)));
                    }
                    if (!keyClient.id.equals(tokenClient)) {
                        return unauthorized("the API key and the bearer token belong to different clients");
                    }
                    return activeClients.isActive(tokenClient).flatMap(active -> active
                            ? Uni.createFrom().item(new Authenticated(tokenClient, token))
                            : unauthorized("invalid or expired bearer token"));
                });
    }

    /** What the call presents, checked against what the endpoint takes; the token's signature already verified. */
    private record Presented(String token, UUID tokenClient, boolean keyGiven) {
    }

    private Presented presented(String authorization, String apiKey, Access scheme) {
        String token = bearerToken(authorization);
        boolean keyGiven = scheme != Access.BEARER && apiKey != null && !apiKey.isBlank();
        if (token == null && authorization != null && !authorization.isBlank()) {
            throw ApiException.unauthorized("the Authorization header must be 'Bearer <token>'");
        }
        switch (scheme) {
            case BEARER -> {
                if (token == null) {
                    throw ApiException.unauthorized("missing bearer token");
                }
            }
            case KEY_AND_BEARER -> {
                if (token == null || !keyGiven) {
                    throw ApiException.unauthorized("this endpoint needs both the x-api-key header and a bearer token");
                }
            }
            case KEY_OR_BEARER -> {
                if (token == null && !keyGiven) {
                    throw ApiException.unauthorized("missing credentials: send the x-api-key header or a bearer token");
                }
            }
            case OPERATOR -> throw new IllegalArgumentException("operator calls are authenticated by their role");
        }
        UUID tokenClient = token == null ? null : verifier.clientOf(token);
        if (token != null && tokenClient == null) {
            throw ApiException.unauthorized("invalid or expired bearer token");
        }
        return new Presented(token, tokenClient, keyGiven);
    }

    /** A short-lived operator token to forward a checked {@code /admin/...} call. */
    public String operatorToken() {
        return issuer.operatorToken();
    }

    public static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.strip();
        if (value.length() < 8 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = value.substring(7).strip();
        return token.isEmpty() ? null : token;
    }

    private static <T> Uni<T> unauthorized(String message) {
        return Uni.createFrom().failure(ApiException.unauthorized(message));
    }
}
