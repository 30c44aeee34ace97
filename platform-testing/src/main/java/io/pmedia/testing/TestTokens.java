package io.pmedia.testing;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import io.smallrye.jwt.build.Jwt;

/** Bearer tokens as the gateway would issue them, signed with {@link TestKeys}, for testing a service directly. */
public final class TestTokens {

    private TestTokens() {
    }

    /** A valid one-hour token for a vendor. */
    public static String client(UUID clientId) {
        return sign(clientId.toString(), Set.of("client"), Duration.ofHours(1));
    }

    /** A valid token of the platform operator (what the gateway forwards on {@code /admin/...}). */
    public static String operator() {
        return sign("operator", Set.of("operator"), Duration.ofMinutes(5));
    }

    public static String sign(String subject, Set<String> groups, Duration lifetime) {
        return Jwt.issuer(TestKeys.ISSUER)
                .audience(TestKeys.AUDIENCE)
                .subject(subject)
                .groups(groups)
                .expiresIn(lifetime)
                .jws()
                .keyId(TestKeys.KEY_ID)
                .sign(TestKeys.privateKey());
    }

    /** A vendor token signed with the previous key of a rotation. */
    public static String clientWithPreviousKey(UUID clientId) {
        return Jwt.issuer(TestKeys.ISSUER)
                .audience(TestKeys.AUDIENCE)
                .subject(clientId.toString())
                .groups(Set.of("client"))
                .expiresIn(Duration.ofHours(1))
                .jws()
                .keyId(TestKeys.PREVIOUS_KEY_ID)
                .sign(TestKeys.previousPrivateKey());
    }

    /** {@code "Bearer <token>"} for a vendor. */
    public static String bearer(UUID clientId) {
        return "Bearer " + client(clientId);
    }
}
