package io.pmedia.gateway.service;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.common.security.Roles;
import io.pmedia.gateway.config.GatewayConfig;
import io.smallrye.jwt.build.Jwt;

/**
 * Signs the platform's RS256 access tokens and publishes the public keys that verify them. The signing key is
 * read once from configuration (a PEM file or a mounted Kubernetes secret); the JWKS holds its public half plus any
 * previous keys still accepted, so a key can be rotated without invalidating tokens in flight.
 */
@ApplicationScoped
public class TokenIssuer {

    /** A signed token and its lifetime in seconds, as 2.1 reports it. */
    public record IssuedToken(String token, long expiresIn) {
    }

    private final GatewayConfig.Jwt config;
    private final PrivateKey signingKey;
    private final String jwks;

    public TokenIssuer(GatewayConfig config, ObjectMapper mapper) {
        this.config = config.jwt();
        RSAPrivateCrtKey key = readPrivateKey(Path.of(this.config.privateKey()));
        this.signingKey = key;
        this.jwks = buildJwks(mapper, key);
    }

    /** A vendor's access token. */
    public IssuedToken issue(UUID clientId, Duration lifetime) {
        return new IssuedToken(sign(clientId.toString(), Set.of(Roles.CLIENT), lifetime), lifetime.toSeconds());
    }

    /** A short-lived vendor token to forward a call the vendor authenticated with its API key only. */
    public String forwardToken(UUID clientId) {
        return sign(clientId.toString(), Set.of(Roles.CLIENT), config.forwardLifetime());
    }

    /** A short-lived operator token to forward an {@code /admin/...} call after the admin token was checked. */
    public String operatorToken() {
        return sign("operator", Set.of(Roles.OPERATOR), config.forwardLifetime());
    }

    /** The JSON Web Key Set served at {@code /.well-known/jwks.json}. */
    public String jwks() {
        return jwks;
    }

    private String sign(String subject, Set<String> groups, Duration lifetime) {
        Instant now = Instant.now();
        return Jwt.issuer(config.issuer())
                .audience(config.audience())
                .subject(subject)
                .groups(groups)
                .issuedAt(now)
                .expiresAt(now.plus(lifetime))
                .claim("jti", UUID.randomUUID().toString())
                .jws()
                .algorithm(io.smallrye.jwt.algorithm.SignatureAlgorithm.RS256)
                .keyId(config.keyId())
                .sign(signingKey);
    }

    private String buildJwks(ObjectMapper mapper, RSAPrivateCrtKey key) {
        ObjectNode current = mapper.createObjectNode()
                .put("kty", "RSA")
                .put("kid", config.keyId())
                .put("use", "sig")
                .put("alg", "RS256")
                .put("n", base64Url(key.getModulus()))
                .put("e", base64Url(key.getPublicExponent()));
        List<JsonNode> keys = new ArrayList<>();
        keys.add(current);
        config.publicKeys().filter(path -> !path.isBlank()).ifPresent(path -> {
            try {
                JsonNode extra = mapper.readTree(Files.readString(Path.of(path)));
                for (JsonNode node : extra.path("keys")) {
                    if (!config.keyId().equals(node.path("kid").asText())) {
                        keys.add(node);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the JWKS file " + path + ": " + e.getMessage(), e);
            }
        });
        ObjectNode document = mapper.createObjectNode();
        ArrayNode array = document.putArray("keys");
        keys.forEach(array::add);
        return document.toString();
    }

    private static RSAPrivateCrtKey readPrivateKey(Path file) {
        try {
            String pem = Files.readString(file);
            if (!pem.contains("BEGIN PRIVATE KEY")) {
                throw new IllegalStateException("the JWT signing key " + file + " must be a PKCS#8 PEM RSA key");
            }
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", "").trim());
            return (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the JWT signing key " + file + ": " + e.getMessage(), e);
        } catch (java.security.GeneralSecurityException | ClassCastException e) {
            throw new IllegalStateException("the JWT signing key " + file + " is not an RSA private key", e);
        }
    }

    private static String base64Url(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
