package io.pmedia.common.security;

import java.util.UUID;

import jakarta.enterprise.context.RequestScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.pmedia.common.error.ApiException;

/**
 * Who is calling, as proven by the verified bearer token: every resource is scoped to {@link #clientId()}.
 * Services never take a client id from a body or a header.
 */
@RequestScoped
public class Caller {

    private final JsonWebToken token;

    public Caller(JsonWebToken token) {
        this.token = token;
    }

    public UUID clientId() {
        String subject = token == null ? null : token.getSubject();
        if (subject == null || !token.getGroups().contains(Roles.CLIENT)) {
            throw ApiException.unauthorized("missing or invalid bearer token");
        }
        try {
            return UUID.fromString(subject);
        } catch (IllegalArgumentException e) {
            throw ApiException.unauthorized("missing or invalid bearer token");
        }
    }

    /**
     * The caller's client id, once a body's own {@code client-id} (optional; compared case-insensitively) names the
     * same client: a body naming another client is 403 {@code FORBIDDEN} (contracts.md, "Request leniency").
     */
    public UUID clientIdNamedBy(String bodyClientId) {
        UUID clientId = clientId();
        if (bodyClientId != null && !bodyClientId.strip().equalsIgnoreCase(clientId.toString())) {
            throw ApiException.forbidden("field 'client-id' is not the client the token was issued to");
        }
        return clientId;
    }
}
