package io.pmedia.gateway.service;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.pmedia.common.security.Roles;
import io.pmedia.gateway.config.GatewayConfig;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * Verifies bearer tokens with smallrye-jwt against the gateway's own JWKS: RS256 signature only (so {@code none}
 * and HMAC tokens fail), issuer, audience and expiry with a small clock skew.
 */
@ApplicationScoped
public class TokenVerifier {

    private static final int CLOCK_SKEW_SECONDS = 30;
    private static final int MAX_REMEMBERED = 10_000;

    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    private final JWTParser parser;
    private final JWTAuthContextInfo context;

    public TokenVerifier(JWTParser parser, TokenIssuer issuer, GatewayConfig config) {
        this.parser = parser;
        JWTAuthContextInfo info = new JWTAuthContextInfo();
        info.setPublicKeyContent(issuer.jwks());
        info.setIssuedBy(config.jwt().issuer());
        info.setExpectedAudience(Set.of(config.jwt().audience()));
        info.setSignatureAlgorithm(Set.of(SignatureAlgorithm.RS256));
        info.setClockSkew(CLOCK_SKEW_SECONDS);
        info.setRequireNamedPrincipal(true);
        this.context = info;
    }

    /**
     * The vendor a valid token was issued to, or null when the token is not a valid vendor token. A token that
     * verified is remembered until it expires (the signature of the same string cannot change), so a vendor's calls
     * cost one RSA verification per token, not one per call.
     */
    public UUID clientOf(String token) {
        Verified known = verified.get(token);
        if (known != null) {
            if (known.expiresAtSeconds() + CLOCK_SKEW_SECONDS > System.currentTimeMillis() / 1000) {
                return known.clientId();
            }
            verified.remove(token);
        }
        try {
            JsonWebToken jwt = parser.parse(token, context);
            if (!jwt.getGroups().contains(Roles.CLIENT) || jwt.getExpirationTime() <= 0) {
                return null;
            }
            UUID clientId = UUID.fromString(jwt.getSubject());
            if (verified.size() >= MAX_REMEMBERED) {
                verified.clear();
            }
            verified.put(token, new Verified(clientId, jwt.getExpirationTime()));
            return clientId;
        } catch (ParseException | IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }

    private record Verified(UUID clientId, long expiresAtSeconds) {
    }
}
