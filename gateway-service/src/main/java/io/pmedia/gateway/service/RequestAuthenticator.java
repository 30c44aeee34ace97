package io.pmedia.gateway.service;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.error.ApiException;
import io.pmedia.gateway.Client;
import io.pmedia.gateway.config.GatewayConfig;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Authenticates a call to the public interface and decides which token is forwarded downstream. Domain services
 * learn who is calling from a verified token only: the caller's own token, or, for an API-key-only call, one the
 * gateway mints for that client.
 */
@ApplicationScoped
public class RequestAuthenticator {

    /** Which credentials an endpoint takes (interface section 5). */
    public enum Scheme {
        /** {@code Authorization: Bearer} only. */
        BEARER,
        /** Both {@code x-api-key} and the bearer token, of the same client ({@code POST /video/demo}). */
        KEY_AND_BEARER,
        /** The API key, the bearer token, or both of the same client ({@code GET /status/{id}}). */
        KEY_OR_BEARER
    }

    /** A caller that passed: its client id and the bearer token to forward. */
    public record Authenticated(UUID clientId, String forwardToken) {
    }

    private final TokenVerifier verifier;
    private final TokenIssuer issuer;
    private final GatewayConfig config;
    private final ActiveClients activeClients;

    public RequestAuthenticator(TokenVerifier verifier, TokenIssuer issuer, GatewayConfig config,
            ActiveClients activeClients) {
        this.activeClients = activeClients;
        this.verifier = verifier;
        this.issuer = issuer;
        this.config = config;
    }

    public Uni<Authenticated> authenticate(String authorization, String apiKey, Scheme scheme) {
        String token = bearerToken(authorization);
        boolean keyGiven = scheme != Scheme.BEARER && apiKey != null && !apiKey.isBlank();
        if (token == null && authorization != null && !authorization.isBlank()) {
            return unauthorized("the Authorization header must be 'Bearer <token>'");
        }
        switch (scheme) {
            case BEARER -> {
                if (token == null) {
                    return unauthorized("missing bearer token");
                }
            }
            case KEY_AND_BEARER -> {
                if (token == null || !keyGiven) {
                    return unauthorized("this endpoint needs both the x-api-key header and a bearer token");
                }
            }
            case KEY_OR_BEARER -> {
                if (token == null && !keyGiven) {
                    return unauthorized("missing credentials: send the x-api-key header or a bearer token");
                }
            }
        }
        UUID tokenClient = token == null ? null : verifier.clientOf(token);
        if (token != null && tokenClient == null) {
            return unauthorized("invalid or expired bearer token");
        }
        return Panache.withSession(() -> {
            Uni<Client> byKey = keyGiven
                    ? Client.findActiveByApiKeyHash(Secrets.hashApiKey(apiKey.strip()))
                    : Uni.createFrom().nullItem();
            return byKey.flatMap(keyClient -> {
                if (keyGiven && keyClient == null) {
                    return unauthorized("invalid API key");
                }
                if (tokenClient == null) {
                    return Uni.createFrom().item(new Authenticated(keyClient.id, issuer.forwardToken(keyClient.id)));
                }
                if (keyClient != null && !keyClient.id.equals(tokenClient)) {
                    return unauthorized("the API key and the bearer token belong to different clients");
                }
                return activeClients.isActive(tokenClient).flatMap(active -> active
                        ? Uni.createFrom().item(new Authenticated(tokenClient, token))
                        : unauthorized("invalid or expired bearer token"));
            });
        });
    }

    /** Passes only the operator's admin token; without one configured, nobody passes. */
    public void requireOperator(String authorization) {
        String token = bearerToken(authorization);
        String expected = config.adminToken().filter(value -> !value.isBlank()).orElse(null);
        if (expected == null || !Secrets.constantTimeEquals(token, expected)) {
            throw ApiException.unauthorized("missing or invalid admin token");
        }
    }

    /** A short-lived operator token to forward a checked {@code /admin/...} call. */
    public String operatorToken() {
        return issuer.operatorToken();
    }

    /** Passes only the internal service token; without one configured, nobody passes. */
    public void requireInternal(String authorization) {
        String token = bearerToken(authorization);
        String expected = config.internalToken().filter(value -> !value.isBlank()).orElse(null);
        if (expected == null || !Secrets.constantTimeEquals(token, expected)) {
            throw ApiException.unauthorized("missing or invalid internal token");
        }
    }

    static String bearerToken(String authorization) {
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
